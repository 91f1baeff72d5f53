package stack

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Lexe answers as the LEXE tools service does (art. 2043 c.c. from Normattiva, a
// maxim of the Cassazione from the KB, a result of dejure.it from its legal search),
// or 503 while Down is set, and for the tools Fail names; Calls counts the requests it
// had, and Bodies keeps them by path.
type Lexe struct {
	*httptest.Server
	Down    atomic.Bool
	Calls   atomic.Int64
	mu      sync.Mutex
	failing []string
	bodies  map[string][]string
}

// Bodies returns the bodies of the requests sent to path, oldest first.
func (l *Lexe) Bodies(path string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.bodies[path]...)
}

// Fail makes the tool's path (its part after /api/v1/tools/, e.g. "normattiva")
// answer 503 from now on.
func (l *Lexe) Fail(tool string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.failing = append(l.failing, "/api/v1/tools/"+tool+"/")
}

func (l *Lexe) fails(path string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, p := range l.failing {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return l.Down.Load()
}

// kbAnswer is the KB's answer: one maxim on a tenant's deposit.
const kbAnswer = `{"results":[{"riferimento":"Cass. civ. n. 12345/2019","materia":"locazione","testo":"Il deposito cauzionale va restituito al termine della locazione, salvo danni accertati all'immobile; il locatore che lo trattiene senza titolo ne deve gli interessi.","rrf_score":0.91}]}`

// lexSearchAnswer is the legal search's answer (seed 000's shape).
const lexSearchAnswer = `{"results":[{"title":"Deposito cauzionale: la restituzione a fine locazione","url":"https://www.dejure.it/deposito-cauzionale","content":"Il locatore deve restituire il deposito cauzionale alla riconsegna dell'immobile."}],"meta":{"latency_ms":800,"source":"lex_search"}}`

// StartLexe starts a LEXE service on loopback until the test ends.
func StartLexe(t *testing.T) *Lexe {
	l := &Lexe{bodies: map[string][]string{}}
	l.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.Calls.Add(1)
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		l.mu.Lock()
		l.bodies[r.URL.Path] = append(l.bodies[r.URL.Path], string(body))
		l.mu.Unlock()
		if l.fails(r.URL.Path) {
			http.Error(w, "upstream connect error", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasPrefix(r.URL.Path, "/api/v1/tools/kb/"):
			_, _ = io.WriteString(w, kbAnswer)
			return
		case r.URL.Path == "/api/v1/tools/lex_search":
			_, _ = io.WriteString(w, lexSearchAnswer)
			return
		}
		_, _ = io.WriteString(w, `{"text":"Art. 2043 - Risarcimento per fatto illecito. Qualunque fatto doloso o colposo, che cagiona ad altri un danno ingiusto, obbliga colui che ha commesso il fatto a risarcire il danno.","urn":"urn:nir:stato:regio.decreto:1942-03-16;262~art2043","vigente":true}`)
	}))
	t.Cleanup(l.Close)
	return l
}

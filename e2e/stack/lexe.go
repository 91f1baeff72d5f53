package stack

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// Lexe answers as the LEXE tools service does (art. 2043 c.c. from Normattiva), or 503
// while Down is set; Calls counts the requests it had.
type Lexe struct {
	*httptest.Server
	Down  atomic.Bool
	Calls atomic.Int64
}

// StartLexe starts a LEXE service on loopback until the test ends.
func StartLexe(t *testing.T) *Lexe {
	l := &Lexe{}
	l.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.Calls.Add(1)
		if l.Down.Load() {
			http.Error(w, "upstream connect error", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"text":"Art. 2043 - Risarcimento per fatto illecito. Qualunque fatto doloso o colposo, che cagiona ad altri un danno ingiusto, obbliga colui che ha commesso il fatto a risarcire il danno.","urn":"urn:nir:stato:regio.decreto:1942-03-16;262~art2043","vigente":true}`)
	}))
	t.Cleanup(l.Close)
	return l
}

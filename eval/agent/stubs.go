package agent

import (
	"io"
	"net/http"
)

// stubs are the loopback services the scenarios need and no machine here has: a
// web search engine answering as SearXNG does, unless the configuration names a real
// SearXNG, and a LEXE research service that is down, for the scenarios of a failing
// source.
type stubs struct {
	searxng, lexeDown string
	close             func()
}

// searxngAnswer is SearXNG's JSON answer to every search (trimmed): two results, one
// of a legal publisher.
const searxngAnswer = `{"query": "", "number_of_results": 0, "results": [
 {"url": "https://www.altalex.com/documents/news/2024/responsabilita", "title": "Responsabilità extracontrattuale: la Cassazione", "content": "La Suprema Corte ricorda che l'art. 2043 c.c. richiede il danno ingiusto e il nesso causale.", "engine": "duckduckgo", "engines": ["duckduckgo"], "score": 1.0, "category": "general"},
 {"url": "https://example.com/blog/tort", "title": "A blog on tort", "content": "Opinions", "engine": "bing", "engines": ["bing"], "score": 0.5, "category": "general"}],
 "answers": [], "corrections": [], "infoboxes": [], "suggestions": [], "unresponsive_engines": []}`

func startStubs() (*stubs, error) {
	searx, stopSearx, err := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, searxngAnswer)
	}))
	if err != nil {
		return nil, err
	}
	down, stopDown, err := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		http.Error(w, "upstream connect error", http.StatusServiceUnavailable)
	}))
	if err != nil {
		stopSearx()
		return nil, err
	}
	return &stubs{searxng: searx, lexeDown: down, close: func() { stopDown(); stopSearx() }}, nil
}

package lexetools

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/lexflow/lexflow/schemas"
)

// service answers as lexe-tools-it does and keeps the last request body per path.
func service(t *testing.T, status int) (*Client, map[string]map[string]any) {
	got := map[string]map[string]any{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		got[r.URL.Path] = body
		if status != http.StatusOK {
			http.Error(w, "upstream down", status)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/v1/tools/normattiva/search":
			_, _ = w.Write([]byte(`{"text":"Art. 2043 - Risarcimento per fatto illecito...","urn":"urn:nir:stato:regio.decreto:1942-03-16;262~art2043","vigente":true}`))
		case "/api/v1/tools/kb/search":
			_, _ = w.Write([]byte(`{"results":[{"riferimento":"Cass. civ., Sez. III, 15/03/2024, n. 12345","id":"massima_12345","testo":"In tema...","materia":"Responsabilita' civile","rrf_score":0.87,"score":0.87}],"meta":{"latency_ms":450,"source":"kb_search"}}`))
		default:
			_, _ = w.Write([]byte(`{"text":"Articolo 17 - Diritto alla cancellazione...","title":"Regolamento (UE) 2016/679 (GDPR)","celex":"32016R0679"}`))
		}
	}))
	t.Cleanup(srv.Close)
	return New(srv.URL+"/", 5*time.Second), got
}

func TestPayloads(t *testing.T) {
	ctx := context.Background()
	c, got := service(t, http.StatusOK)
	res, err := c.Normattiva(ctx, schemas.NormattivaSearchArgs{ActType: "codice civile", Date: "1942", ActNumber: "262", Article: "2043"})
	if err != nil || !json.Valid(res) {
		t.Fatal(err)
	}
	if b := got["/api/v1/tools/normattiva/search"]; b["version"] != "vigente" || b["act_type"] != "codice civile" || b["article"] != "2043" {
		t.Errorf("normattiva payload %v", b)
	}
	if _, err := c.Eurlex(ctx, schemas.EurlexSearchArgs{ActType: "regolamento", Year: 2016, Number: 679, Article: "17", Language: "ro"}); err != nil {
		t.Fatal(err)
	}
	if b := got["/api/v1/tools/eurlex/search"]; b["language"] != "ron" || b["year"] != float64(2016) || b["number"] != float64(679) {
		t.Errorf("eurlex payload %v", b)
	}
	if _, err := c.Infolex(ctx, schemas.InfolexSearchArgs{ActType: "codice civile", Article: "2043", IncludeMassime: true}); err != nil {
		t.Fatal(err)
	}
	if b := got["/api/v1/tools/infolex/search"]; b["include_massime"] != true || b["include_relazioni"] != false || b["include_footnotes"] != false {
		t.Errorf("infolex payload %v", b)
	}
	res, err = c.KB(ctx, schemas.KBSearchArgs{Query: "danno biologico", TopK: 50})
	if err != nil {
		t.Fatal(err)
	}
	if b := got["/api/v1/tools/kb/search"]; b["top_k"] != float64(20) {
		t.Errorf("kb payload %v: top_k not capped", b)
	}
	if _, ok := got["/api/v1/tools/kb/search"]["materia"]; ok {
		t.Error("an empty materia was sent")
	}
	var kb schemas.KBSearchResult
	if err := json.Unmarshal(res, &kb); err != nil || kb.Results[0].Riferimento != "Cass. civ., Sez. III, 15/03/2024, n. 12345" {
		t.Errorf("kb answer %s", res)
	}
}

func TestGatewayErrorsAreRetryable(t *testing.T) {
	for status, retryable := range map[int]bool{502: true, 503: true, 504: true, 500: false, 422: false} {
		c, _ := service(t, status)
		_, err := c.KB(context.Background(), schemas.KBSearchArgs{Query: "x", TopK: 5})
		var se *StatusError
		if !errors.As(err, &se) || se.Retryable() != retryable {
			t.Errorf("%d: %v", status, err)
		}
	}
}

// TestKBIsItalianOnly: the service's massimario is Italian, so kb_search within the
// Romanian courts is answered with no call, by no results and a note saying so; within
// the Italian ones, or all, it is the service's answer to the payload it knows (no
// jurisdiction sent).
func TestKBIsItalianOnly(t *testing.T) {
	ctx := context.Background()
	c, got := service(t, http.StatusOK)
	res, err := c.KB(ctx, schemas.KBSearchArgs{Query: "garanție de participare", Jurisdiction: "ro"})
	var kb schemas.KBSearchResult
	if err == nil {
		err = json.Unmarshal(res, &kb)
	}
	if err != nil || len(kb.Results) != 0 || kb.Note != italianOnly || len(got) != 0 {
		t.Errorf("within ro: %s, %v, calls %v; want no results, the note and no call", res, err, got)
	}
	for _, j := range []string{"it", "all"} {
		if _, err := c.KB(ctx, schemas.KBSearchArgs{Query: "danno biologico", Jurisdiction: j}); err != nil {
			t.Fatalf("within %s: %v", j, err)
		}
		if _, ok := got["/api/v1/tools/kb/search"]["jurisdiction"]; ok {
			t.Errorf("within %s: the jurisdiction was sent to a service that does not know it", j)
		}
	}
}

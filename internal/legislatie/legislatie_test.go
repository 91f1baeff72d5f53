package legislatie

import (
	"context"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// fake is the service on loopback: it checks each request's SOAPAction and envelope
// as the WSDL has them, and answers with testdata's envelopes. A search with a token
// other than the latest it issued, or after expire, gets the service's fault.
type fake struct {
	mu       sync.Mutex
	issued   int
	valid    string
	searches []searchModel
}

type searchModel struct {
	Page    string `xml:"Body>Search>SearchModel>NumarPagina"`
	PerPage string `xml:"Body>Search>SearchModel>RezultatePagina"`
	Year    string `xml:"Body>Search>SearchModel>SearchAn"`
	Number  string `xml:"Body>Search>SearchModel>SearchNumar"`
	Text    string `xml:"Body>Search>SearchModel>SearchText"`
	Title   string `xml:"Body>Search>SearchModel>SearchTitlu"`
	Token   string `xml:"Body>Search>tokenKey"`
}

func (f *fake) expire() { f.mu.Lock(); f.valid = "expired"; f.mu.Unlock() }

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	defer f.mu.Unlock()
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	switch r.Header.Get("SOAPAction") {
	case `"http://tempuri.org/IFreeWebService/GetToken"`:
		if !strings.Contains(string(body), `<GetToken xmlns="http://tempuri.org/"/>`) {
			http.Error(w, "bad GetToken", http.StatusBadRequest)
			return
		}
		f.issued++
		f.valid = "7f3c2a1e-5b8d-4c6e-9a0f-1d2e3f4a5b6c"
		serve(w, "gettoken.xml", http.StatusOK)
	case `"http://tempuri.org/IFreeWebService/Search"`:
		var m searchModel
		if err := xml.Unmarshal(body, &m); err != nil || !strings.Contains(string(body), `xmlns:a="http://schemas.datacontract.org/2004/07/FreeWebService"`) {
			http.Error(w, "bad Search", http.StatusBadRequest)
			return
		}
		f.searches = append(f.searches, m)
		if m.Token != f.valid {
			serve(w, "fault.xml", http.StatusInternalServerError)
			return
		}
		serve(w, "search.xml", http.StatusOK)
	default:
		http.Error(w, "unknown action", http.StatusInternalServerError)
	}
}

func serve(w http.ResponseWriter, name string, code int) {
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		panic(err)
	}
	w.WriteHeader(code)
	w.Write(data)
}

func TestActFindsTheCodeByTypeNumberAndYear(t *testing.T) {
	f := &fake{}
	srv := httptest.NewServer(f)
	defer srv.Close()
	c := New(srv.URL, 5*time.Second)
	ctx := context.Background()
	act, err := c.Act(ctx, "Lege", "287", 2009)
	if err != nil {
		t.Fatal(err)
	}
	if act.Type != "LEGE" || act.InForceSince != "2011-10-01" || !strings.Contains(act.Title, "Codul civil") ||
		act.Link != "http://legislatie.just.ro/Public/DetaliiDocument/109884" || strings.Contains(act.Text, "\r") {
		t.Errorf("%+v", act)
	}
	if len(f.searches) != 1 || f.searches[0].Number != "287" || f.searches[0].Year != "2009" || f.searches[0].Page != "1" {
		t.Errorf("searches %+v", f.searches)
	}
	arts := Articles(act.Text)
	if len(arts) != 2 || arts[0].Number != "1349" || arts[1].Number != "1357" ||
		!strings.HasPrefix(arts[1].Text, "Condițiile răspunderii\n(1) Cel care cauzează") || strings.Contains(arts[0].Text, "1357") {
		t.Errorf("articles %+v", arts)
	}
	if _, err := c.Act(ctx, "ORDONANTA DE URGENTA", "287", 2009); !errors.Is(err, ErrNoAct) {
		t.Errorf("an act type the search did not find: %v", err)
	}
	if f.issued != 1 {
		t.Errorf("%d tokens for two searches", f.issued)
	}
}

// TestRefusedTokenIsRenewedOnce: a token the service refuses is replaced once; a
// service that refuses every token answers its fault.
func TestRefusedTokenIsRenewedOnce(t *testing.T) {
	f := &fake{}
	srv := httptest.NewServer(f)
	defer srv.Close()
	c := New(srv.URL, 5*time.Second)
	ctx := context.Background()
	if _, err := c.Search(ctx, Query{Number: "287"}); err != nil {
		t.Fatal(err)
	}
	f.expire()
	if _, err := c.Search(ctx, Query{Number: "287"}); err != nil || f.issued != 2 {
		t.Fatalf("after the token expired: %v, %d tokens", err, f.issued)
	}
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.Header.Get("SOAPAction"), `GetToken"`) {
			serve(w, "gettoken.xml", http.StatusOK)
			return
		}
		serve(w, "fault.xml", http.StatusInternalServerError)
	}))
	defer refusing.Close()
	_, err := New(refusing.URL, 5*time.Second).Search(ctx, Query{Number: "287"})
	var fault *Fault
	if !errors.As(err, &fault) || !strings.Contains(fault.Reason, "Token invalid") {
		t.Errorf("a service refusing every token: %v", err)
	}
}

func TestGatewayErrorsAreRetryable(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "upstream", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	_, err := New(srv.URL, 5*time.Second).Search(context.Background(), Query{Number: "1"})
	var st *StatusError
	if !errors.As(err, &st) || !st.Retryable() {
		t.Errorf("503: %v", err)
	}
}

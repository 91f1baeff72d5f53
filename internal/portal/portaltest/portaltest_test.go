package portaltest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/internal/portal"
)

// fast is a client that does not wait a second between the calls of one test.
var fast = portal.Options{Interval: time.Millisecond}

func sampleFile() portal.Dosar {
	return portal.Dosar{
		Numar: "1234/3/2024", Institutie: "TribunalulBUCURESTI", Data: portal.Day(2024, 2, 10),
		Departament: "Secţia a VI-a civilă", Obiect: "pretenţii", StadiuProcesualNume: "Fond",
		Parti: []portal.DosarParte{{Nume: "POPESCU ION", CalitateParte: "Reclamant"}},
	}
}

func TestClientReadsFilesAndHearings(t *testing.T) {
	s := New()
	defer s.Close()
	s.AddFile(sampleFile())
	other := sampleFile()
	other.Numar = "1234/3/2024/a1"
	s.AddFile(other)
	if !s.AddHearing("1234/3/2024", "TribunalulBUCURESTI", portal.DosarSedinta{Complet: "C5", Data: portal.Day(2025, 3, 5), Ora: "09:00"}) {
		t.Fatal("AddHearing found no file")
	}
	s.AddHearing("1234/3/2024", "TribunalulBUCURESTI", portal.DosarSedinta{Complet: "C5", Data: portal.Day(2025, 1, 8), Ora: "09:00",
		Solutie: "Amână cauza", SolutieSumar: "Amână judecarea cauzei la 05.03.2025.", DataPronuntare: portal.Day(2025, 1, 8)})
	if s.AddHearing("9/9/2024", "TribunalulBUCURESTI", portal.DosarSedinta{}) {
		t.Error("AddHearing found a file never added")
	}
	c := portal.New(s.URL(), fast)
	f, ok, err := c.File(t.Context(), "1234/3/2024", "TribunalulBUCURESTI")
	if err != nil || !ok {
		t.Fatalf("File = %v, %v", ok, err)
	}
	if f.Numar != "1234/3/2024" || len(f.Sedinte) != 2 || len(f.Parti) != 1 {
		t.Fatalf("file = %+v", f)
	}
	if !f.Sedinte[0].Data.Equal(portal.Day(2025, 3, 5).Time) || f.Sedinte[1].Solutie != "Amână cauza" {
		t.Errorf("hearings, newest first = %+v", f.Sedinte)
	}
	if !f.Sedinte[0].DataPronuntare.IsZero() {
		t.Errorf("a hearing without a result came back pronounced on %v", f.Sedinte[0].DataPronuntare)
	}
	if _, ok, err := c.File(t.Context(), "1234/3/2024", "TribunalulILFOV"); ok || err != nil {
		t.Errorf("File at another court = %v, %v; want none", ok, err)
	}
	byParty, err := c.CautareDosare(t.Context(), portal.CautareDosare{NumeParte: "popescu"})
	if err != nil || len(byParty) != 2 {
		t.Errorf("CautareDosare by party = %d files, %v; want 2", len(byParty), err)
	}
}

func TestFaults(t *testing.T) {
	s := New()
	defer s.Close()
	c := portal.New(s.URL(), fast)
	_, err := c.CautareDosare(t.Context(), portal.CautareDosare{NumarDosar: "1/1/2024", Institutie: "TribunalulNICAIERI"})
	var f *portal.Fault
	if !errors.As(err, &f) || !f.Sender() || !strings.Contains(f.Reason(), "not a valid value for Institutie") {
		t.Errorf("unknown court: %v, want a Client fault", err)
	}
	_, err = c.CautareDosare(t.Context(), portal.CautareDosare{})
	if !errors.As(err, &f) || !f.Sender() {
		t.Errorf("no criterion: %v, want a Client fault", err)
	}
	s.FailNext(1)
	_, err = c.CautareDosare(t.Context(), portal.CautareDosare{NumarDosar: "1/1/2024"})
	if !errors.As(err, &f) || f.Sender() {
		t.Errorf("service down: %v, want a Server fault", err)
	}
	if _, err := c.CautareDosare(t.Context(), portal.CautareDosare{NumarDosar: "1/1/2024"}); err != nil {
		t.Errorf("after the failure: %v", err)
	}
}

// TestWireFormat sends what other clients send: SOAP 1.2, an unknown action, XML
// that is not an envelope.
func TestWireFormat(t *testing.T) {
	s := New()
	defer s.Close()
	s.AddFile(sampleFile())
	post := func(contentType, action, body string) (int, string) {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, s.URL(), strings.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		if action != "" {
			req.Header.Set("SOAPAction", action)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	soap12 := `<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"><soap12:Body><CautareDosare xmlns="portalquery.just.ro"><numarDosar>1234/3/2024</numarDosar><institutie>TribunalulBUCURESTI</institutie><dataStart xsi:nil="true" /><dataStop xsi:nil="true" /></CautareDosare></soap12:Body></soap12:Envelope>`
	code, body := post(`application/soap+xml; charset=utf-8; action="portalquery.just.ro/CautareDosare"`, "", soap12)
	if code != http.StatusOK || !strings.Contains(body, `xmlns:soap="http://www.w3.org/2003/05/soap-envelope"`) || !strings.Contains(body, "<numar>1234/3/2024</numar>") {
		t.Errorf("SOAP 1.2: %d %s", code, body)
	}
	code, body = post("text/xml; charset=utf-8", `"portalquery.just.ro/StergeDosare"`, strings.ReplaceAll(soap12, "2003/05/soap-envelope", "soap/envelope/"))
	if code != http.StatusInternalServerError || !strings.Contains(body, "<faultcode>soap:Client</faultcode>") || !strings.Contains(body, "SOAPAction: StergeDosare") {
		t.Errorf("unknown action: %d %s", code, body)
	}
	code, body = post("text/xml; charset=utf-8", `"portalquery.just.ro/CautareDosare"`, "<not-soap/>")
	if code != http.StatusInternalServerError || !strings.Contains(body, "Server was unable to read request") {
		t.Errorf("not an envelope: %d %s", code, body)
	}
	code, _ = post("text/xml; charset=utf-8", `"portalquery.just.ro/CautareDosare"`, strings.Repeat("x", maxRequest+10))
	if code != http.StatusInternalServerError {
		t.Errorf("oversized request: %d", code)
	}
}

func TestClientBounds(t *testing.T) {
	s := New()
	defer s.Close()
	for i := range 50 {
		f := sampleFile()
		f.Obiect = strings.Repeat("obiect ", 100) + string(rune('a'+i%26))
		f.Numar = strings.Replace(f.Numar, "1234", "12"+string(rune('0'+i/10))+string(rune('0'+i%10)), 1)
		s.AddFile(f)
	}
	small := portal.New(s.URL(), portal.Options{Interval: time.Millisecond, MaxBytes: 4 << 10})
	if _, err := small.CautareDosare(t.Context(), portal.CautareDosare{NumeParte: "POPESCU"}); !errors.Is(err, portal.ErrTooLarge) {
		t.Errorf("answer past MaxBytes: %v, want ErrTooLarge", err)
	}

	// One call an hour: the second waits for its turn and gives up with its context,
	// unsent.
	polite := portal.New(s.URL(), portal.Options{Interval: time.Hour})
	before := s.Calls()
	if _, err := polite.CautareDosare(t.Context(), portal.CautareDosare{NumarDosar: "1/1/2024"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := polite.CautareDosare(ctx, portal.CautareDosare{NumarDosar: "1/1/2024"}); err == nil {
		t.Error("a second call within the interval was sent")
	}
	if got := s.Calls() - before; got != 1 {
		t.Errorf("the service saw %d calls, want 1", got)
	}

	// A service that never answers: the call ends at its timeout. (The handler reads
	// the body first: only then does the server notice the client leaving.)
	stuck := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	defer stuck.Close()
	slow := portal.New(stuck.URL, portal.Options{Timeout: 100 * time.Millisecond})
	if _, err := slow.CautareDosare(t.Context(), portal.CautareDosare{NumarDosar: "1/1/2024"}); err == nil {
		t.Error("a call to a service that never answers returned no error")
	}

	// A proxy's error page is no envelope: the status is told.
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.Copy(w, bytes.NewBufferString("<html>bad gateway</html>"))
	}))
	defer broken.Close()
	var status *portal.StatusError
	if _, err := portal.New(broken.URL, fast).CautareDosare(t.Context(), portal.CautareDosare{NumarDosar: "1/1/2024"}); !errors.As(err, &status) || status.StatusCode != http.StatusBadGateway {
		t.Errorf("502 page: %v, want a StatusError", err)
	}
}

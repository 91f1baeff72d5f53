// Package portaltest serves a fake of the courts' portal query service on loopback
// for tests: the service's wire format (SOAP 1.1 or 1.2 envelopes in, ASP.NET's
// envelopes out, SOAP faults for requests it cannot read), answering from files and
// hearings a test adds.
package portaltest

import (
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"

	"github.com/lexflow/lexflow/internal/portal"
)

// maxRequest bounds a request's body; the service's requests are a few hundred bytes.
const maxRequest = 64 << 10

// Server is a fake service on a loopback HTTP server.
type Server struct {
	srv *httptest.Server

	mu    sync.Mutex
	files []portal.Dosar
	calls int
	// faults, while above zero, is how many of the next calls fail with a Server fault.
	faults int
}

// New starts a fake service; Close stops it.
func New() *Server {
	s := &Server{}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// URL is the service's address, as a Client takes it (".../query.asmx").
func (s *Server) URL() string { return s.srv.URL + "/query.asmx" }

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// AddFile adds a file, or replaces the one of its number and court.
func (s *Server) AddFile(f portal.Dosar) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := s.find(f.Numar, f.Institutie); i >= 0 {
		s.files[i] = f
		return
	}
	s.files = append(s.files, f)
}

// AddHearing adds a hearing to a file, or replaces the one of its date, hour and panel
// (a hearing that got its result), newest first as the service lists them; it reports
// whether the file exists.
func (s *Server) AddHearing(number, court string, h portal.DosarSedinta) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.find(number, court)
	if i < 0 {
		return false
	}
	f := &s.files[i]
	f.Sedinte = slices.DeleteFunc(f.Sedinte, func(o portal.DosarSedinta) bool {
		return o.Data.Equal(h.Data.Time) && o.Ora == h.Ora && o.Complet == h.Complet
	})
	f.Sedinte = append(f.Sedinte, h)
	slices.SortStableFunc(f.Sedinte, func(a, b portal.DosarSedinta) int { return b.Data.Compare(a.Data.Time) })
	f.DataModificare = h.Data
	return true
}

// FailNext makes the next n calls fail with a Server fault, as the service does when
// its database is away.
func (s *Server) FailNext(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = n
}

// Calls is how many requests the server answered, faults included.
func (s *Server) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

// find is the index of a file, -1 for none; s.mu is held.
func (s *Server) find(number, court string) int {
	return slices.IndexFunc(s.files, func(f portal.Dosar) bool { return f.Numar == number && f.Institutie == court })
}

// serve answers one request as the service does.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.calls++
	failing := s.faults > 0
	if failing {
		s.faults--
	}
	s.mu.Unlock()
	if r.Method != http.MethodPost {
		http.Error(w, "Request format is unrecognized.", http.StatusInternalServerError)
		return
	}
	ns, action, ok := version(r)
	if !ok {
		http.Error(w, "Unsupported media type", http.StatusUnsupportedMediaType)
		return
	}
	fault := func(sender bool, reason string) {
		mt := portal.SOAP11MediaType
		if ns == portal.SOAP12Namespace {
			mt = portal.SOAP12MediaType
		}
		w.Header().Set("Content-Type", mt)
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write(portal.FaultEnvelope(ns, sender, reason))
	}
	if failing {
		fault(false, "Server was unable to process request. ---> Timeout expired.")
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRequest+1))
	if err != nil || len(body) > maxRequest {
		fault(true, "Server was unable to read request. ---> The request is too large or was cut.")
		return
	}
	op, _ := strings.CutPrefix(action, portal.Namespace+"/")
	answer, refused := s.answer(op, body)
	if refused != nil {
		fault(true, refused.reason)
		return
	}
	out, err := portal.Envelope(ns, answer)
	if err != nil {
		fault(false, err.Error())
		return
	}
	if ns == portal.SOAP12Namespace {
		w.Header().Set("Content-Type", portal.SOAP12MediaType)
	} else {
		w.Header().Set("Content-Type", portal.SOAP11MediaType)
	}
	_, _ = w.Write(out)
}

// version tells a request's SOAP version by its media type, and its action: SOAP
// 1.1's SOAPAction header, or SOAP 1.2's action parameter.
func version(r *http.Request) (ns, action string, ok bool) {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return "", "", false
	}
	switch mt {
	case "text/xml":
		return portal.SOAP11Namespace, strings.Trim(r.Header.Get("SOAPAction"), `"`), true
	case "application/soap+xml":
		return portal.SOAP12Namespace, params["action"], true
	}
	return "", "", false
}

// clientFault is a request the service refuses, answered with a Client fault.
type clientFault struct{ reason string }

// unreadable is a request the service cannot read, as ASP.NET words it.
func unreadable(why string) *clientFault {
	return &clientFault{"Server was unable to read request. ---> " + why}
}

// answer is the response to an operation's request body.
func (s *Server) answer(op string, body []byte) (any, *clientFault) {
	switch op {
	case portal.OpCautareDosare:
		q, err := decode[portal.CautareDosare](body)
		if err != nil {
			return nil, err
		}
		files, err := s.search(q.NumarDosar, q.NumeParte, string(q.Institutie))
		return portal.CautareDosareResponse{Result: files}, err
	}
	return nil, &clientFault{"Server did not recognize the value of HTTP Header SOAPAction: " + op + "."}
}

// decode reads a request envelope holding a T.
func decode[T any](body []byte) (T, *clientFault) {
	var zero T
	q, err := portal.DecodeEnvelope[T](body)
	if err != nil {
		return zero, unreadable("There is an error in XML document: " + err.Error())
	}
	return *q, nil
}

// invalidCourt is the XmlSerializer's refusal of a value outside Institutie.
func invalidCourt(v string) *clientFault {
	return unreadable(fmt.Sprintf("Instance validation error: '%s' is not a valid value for Institutie.", v))
}

// search finds the files of a number (exactly) or of a party's name (a part of it,
// ignoring case), at a court if one is named.
func (s *Server) search(number, party, court string) ([]portal.Dosar, *clientFault) {
	if court != "" && !portal.KnownCourt(court) {
		return nil, invalidCourt(court)
	}
	if number == "" && party == "" && court == "" {
		return nil, &clientFault{"The fake portal searches by number, party or court: none was given."}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []portal.Dosar
	for _, f := range s.files {
		switch {
		case court != "" && f.Institutie != court:
		case number != "" && f.Numar != number:
		case party != "" && !slices.ContainsFunc(f.Parti, func(p portal.DosarParte) bool {
			return strings.Contains(strings.ToUpper(p.Nume), strings.ToUpper(party))
		}):
		default:
			out = append(out, f)
		}
	}
	return out, nil
}

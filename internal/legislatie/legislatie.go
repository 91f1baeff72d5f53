// Package legislatie reads Romanian acts from the Portal Legislativ's public SOAP
// service (legislatie.just.ro/apiws/FreeWebService.svc, a WCF service of the Ministry
// of Justice): GetToken, then Search with a SearchModel of year, number, title, text
// and page. Its answers give each act's type, number, title, issuer, publication, the
// date it came into force, its page's link and its text; nothing in them says whether
// the text is consolidated, so callers keep it as published.
package legislatie

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The service's names, as its WSDL gives them.
const (
	serviceNS  = "http://tempuri.org/"
	modelNS    = "http://schemas.datacontract.org/2004/07/FreeWebService"
	actionBase = serviceNS + "IFreeWebService/"
)

// maxResponseBytes bounds one answer: a search page of a few whole codes.
const maxResponseBytes = 64 << 20

// Client calls the service at one URL (".../FreeWebService.svc/SOAP"). It keeps the
// token GetToken gave until the service refuses it, then asks once for another.
type Client struct {
	url  string
	http *http.Client
	mu   sync.Mutex
	tok  string
}

// New returns a client of the service at url whose calls each last at most timeout.
func New(url string, timeout time.Duration) *Client {
	return &Client{url: url, http: &http.Client{Timeout: timeout}}
}

// Query is a SearchModel: the acts of a year, a number, words of the title or of the
// text, page Page (from 1) of PerPage results.
type Query struct {
	Year    int
	Number  string
	Title   string
	Text    string
	Page    int
	PerPage int
}

// Act is one act a search found, with the service's fields.
type Act struct {
	Type        string `xml:"TipAct"`
	Number      string `xml:"Numar"`
	Title       string `xml:"Titlu"`
	Issuer      string `xml:"Emitent"`
	Publication string `xml:"Publicatie"`
	// InForceSince is DataVigoare, the date the act came into force, as the service
	// writes it.
	InForceSince string `xml:"DataVigoare"`
	Link         string `xml:"LinkHtml"`
	Text         string `xml:"Text"`
}

// StatusError is an HTTP answer other than 200 without a SOAP fault.
type StatusError struct{ Code int }

func (e *StatusError) Error() string { return fmt.Sprintf("legislatie.just.ro answered %d", e.Code) }

// Retryable reports a gateway error (502, 503, 504), which may pass.
func (e *StatusError) Retryable() bool {
	return e.Code == http.StatusBadGateway || e.Code == http.StatusServiceUnavailable || e.Code == http.StatusGatewayTimeout
}

// Fault is a SOAP fault the service answered.
type Fault struct{ Code, Reason string }

func (f *Fault) Error() string { return "legislatie.just.ro fault: " + f.Code + ": " + f.Reason }

// Search returns the acts of one page of q, asking for a token first when the client
// has none, and once more when the service refuses the one it has.
func (c *Client) Search(ctx context.Context, q Query) ([]Act, error) {
	acts, err := c.search(ctx, q, false)
	var fault *Fault
	if errors.As(err, &fault) {
		acts, err = c.search(ctx, q, true)
	}
	return acts, err
}

func (c *Client) search(ctx context.Context, q Query, fresh bool) ([]Act, error) {
	tok, err := c.token(ctx, fresh)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(`<Search xmlns="` + serviceNS + `"><SearchModel xmlns:a="` + modelNS + `" xmlns:i="http://www.w3.org/2001/XMLSchema-instance">`)
	field := func(name, value string) {
		b.WriteString("<a:" + name + ">")
		_ = xml.EscapeText(&b, []byte(value))
		b.WriteString("</a:" + name + ">")
	}
	year := ""
	if q.Year > 0 {
		year = strconv.Itoa(q.Year)
	}
	field("NumarPagina", strconv.Itoa(max(q.Page, 1)))
	field("RezultatePagina", strconv.Itoa(min(max(q.PerPage, 1), 50)))
	field("SearchAn", year)
	field("SearchNumar", q.Number)
	field("SearchText", q.Text)
	field("SearchTitlu", q.Title)
	b.WriteString(`</SearchModel><tokenKey>`)
	_ = xml.EscapeText(&b, []byte(tok))
	b.WriteString(`</tokenKey></Search>`)
	var out struct {
		Acts []Act `xml:"Body>SearchResponse>SearchResult>Legi"`
	}
	if err := c.call(ctx, "Search", b.String(), &out); err != nil {
		return nil, err
	}
	for i := range out.Acts {
		out.Acts[i].Text = strings.ReplaceAll(out.Acts[i].Text, "\r\n", "\n")
	}
	return out.Acts, nil
}

// token returns the client's token, asking GetToken for one when it has none or when
// fresh.
func (c *Client) token(ctx context.Context, fresh bool) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tok != "" && !fresh {
		return c.tok, nil
	}
	var out struct {
		Token string `xml:"Body>GetTokenResponse>GetTokenResult"`
	}
	if err := c.call(ctx, "GetToken", `<GetToken xmlns="`+serviceNS+`"/>`, &out); err != nil {
		return "", err
	}
	if out.Token = strings.TrimSpace(out.Token); out.Token == "" {
		return "", errors.New("legislatie.just.ro gave no token")
	}
	c.tok = out.Token
	return c.tok, nil
}

// call posts one SOAP 1.1 envelope holding body with the operation's SOAPAction and
// decodes the answer into out, or returns its fault.
func (c *Client) call(ctx context.Context, op, body string, out any) error {
	env := `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>` + body + `</s:Body></s:Envelope>`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, strings.NewReader(env))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "text/xml; charset=utf-8")
	req.Header.Set("SOAPAction", `"`+actionBase+op+`"`)
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("legislatie.just.ro %s: %w", op, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return fmt.Errorf("legislatie.just.ro %s: %w", op, err)
	}
	if len(raw) > maxResponseBytes {
		return fmt.Errorf("legislatie.just.ro %s: the answer is larger than %d bytes", op, maxResponseBytes)
	}
	var fault struct {
		Code   string `xml:"Body>Fault>faultcode"`
		Reason string `xml:"Body>Fault>faultstring"`
	}
	if xml.Unmarshal(raw, &fault) == nil && (fault.Code != "" || fault.Reason != "") {
		return &Fault{Code: fault.Code, Reason: fault.Reason}
	}
	if resp.StatusCode != http.StatusOK {
		return &StatusError{Code: resp.StatusCode}
	}
	if err := xml.NewDecoder(bytes.NewReader(raw)).Decode(out); err != nil {
		return fmt.Errorf("legislatie.just.ro %s: %w", op, err)
	}
	return nil
}

// ErrNoAct means the service found no act of that type, number and year.
var ErrNoAct = errors.New("legislatie.just.ro holds no such act")

// Act returns the act of a type ("LEGE", "ORDONANTA DE URGENTA", as TipAct writes
// it, compared without case or diacritics), number and year, from the first page of
// the search by number and year.
func (c *Client) Act(ctx context.Context, actType, number string, year int) (Act, error) {
	acts, err := c.Search(ctx, Query{Number: number, Year: year, PerPage: 50})
	if err != nil {
		return Act{}, err
	}
	for _, a := range acts {
		if fold(a.Type) == fold(actType) && strings.TrimSpace(a.Number) == number {
			return a, nil
		}
	}
	return Act{}, fmt.Errorf("%w: %s %s/%d", ErrNoAct, actType, number, year)
}

// fold compares act types: upper case, Romanian letters without their marks.
func fold(s string) string {
	return strings.ToUpper(strings.Join(strings.Fields(strings.NewReplacer("ă", "a", "â", "a", "î", "i", "ș", "s", "ş", "s", "ț", "t", "ţ", "t",
		"Ă", "A", "Â", "A", "Î", "I", "Ș", "S", "Ş", "S", "Ț", "T", "Ţ", "T").Replace(s)), " "))
}

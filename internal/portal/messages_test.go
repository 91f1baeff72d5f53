package portal

import (
	"encoding/xml"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestDecodeCautareDosareResponse(t *testing.T) {
	r, err := DecodeEnvelope[CautareDosareResponse](readTestdata(t, "cautaredosare_response.xml"))
	if err != nil {
		t.Fatalf("DecodeEnvelope = %v", err)
	}
	if len(r.Result) != 1 {
		t.Fatalf("got %d files, want 1", len(r.Result))
	}
	f := r.Result[0]
	if f.Numar != "1904/3/2024/a1" || f.Institutie != "CurteadeApelBUCURESTI" || f.StadiuProcesualNume != "Recurs" {
		t.Errorf("file = %q at %q (%q)", f.Numar, f.Institutie, f.StadiuProcesualNume)
	}
	if len(f.Parti) != 2 || f.Parti[0].Nume != "POPESCU ION" || f.Parti[1].CalitateParte != "Intimat Pârât" {
		t.Errorf("parties = %+v", f.Parti)
	}
	if len(f.Sedinte) != 3 {
		t.Fatalf("got %d hearings, want 3", len(f.Sedinte))
	}
	h := f.Sedinte[0]
	if !h.Data.Equal(time.Date(2024, 12, 10, 0, 0, 0, 0, Zone)) || h.Ora != "09:00" || h.Solutie != "Încheiere" {
		t.Errorf("first hearing = %v %q %q", h.Data, h.Ora, h.Solutie)
	}
	if !strings.HasPrefix(h.SolutieSumar, "Respinge cererea") || !strings.Contains(h.SolutieSumar, "\nDefinitivă.") {
		t.Errorf("solutieSumar lost its text or its lines: %q", h.SolutieSumar)
	}
	if !h.DataPronuntare.Equal(time.Date(2024, 12, 10, 0, 0, 0, 0, Zone)) || h.NumarDocument != "" {
		t.Errorf("pronounced %v, document %q", h.DataPronuntare, h.NumarDocument)
	}
	next := f.Sedinte[2]
	if !next.DataPronuntare.IsZero() || next.Solutie != "" || next.DocumentSedinta != "" {
		t.Errorf("a hearing to come reads a result: %+v", next)
	}
	want := time.Date(2024, 12, 17, 23, 7, 20, 7e6, Zone)
	if !f.DataModificare.Equal(want) {
		t.Errorf("dataModificare = %v, want %v (its fraction kept)", f.DataModificare, want)
	}
	if len(f.CaiAtac) != 1 || f.CaiAtac[0].TipCaleAtac != "Recurs" {
		t.Errorf("appeals = %+v", f.CaiAtac)
	}
}

func TestDecodeFault(t *testing.T) {
	_, err := DecodeEnvelope[CautareDosareResponse](readTestdata(t, "fault_client.xml"))
	var f *Fault
	if !errors.As(err, &f) {
		t.Fatalf("DecodeEnvelope = %v, want a *Fault", err)
	}
	if !f.Sender() || !strings.Contains(f.Reason(), "'TribunalulNICAIERI' is not a valid value for Institutie") {
		t.Errorf("fault = %q %q, sender %v", f.Code(), f.Reason(), f.Sender())
	}
}

func TestDecodeRefusesAnotherOperation(t *testing.T) {
	if _, err := DecodeEnvelope[CautareDosare](readTestdata(t, "cautaredosare_response.xml")); err == nil {
		t.Fatal("a CautareDosare answer read as its request")
	}
}

// TestRequestEnvelope checks the request as the WSDL asks: elements qualified in the
// service's namespace, the required nillable ones present, nil when empty.
func TestRequestEnvelope(t *testing.T) {
	data, err := Envelope(SOAP11Namespace, CautareDosare{NumarDosar: "1234/3/2024", Institutie: "TribunalulBUCURESTI", DataStart: Day(2024, 1, 31)})
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for _, want := range []string{
		`<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"`,
		`<CautareDosare xmlns="portalquery.just.ro"><numarDosar>1234/3/2024</numarDosar><institutie>TribunalulBUCURESTI</institutie>`,
		`<dataStart>2024-01-31T00:00:00</dataStart><dataStop xsi:nil="true"></dataStop>`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("request lacks %s:\n%s", want, s)
		}
	}
	if strings.Contains(s, "numeParte") {
		t.Errorf("request names an empty optional element:\n%s", s)
	}
	var env struct {
		Body struct {
			Q CautareDosare `xml:"portalquery.just.ro CautareDosare"`
		} `xml:"http://schemas.xmlsoap.org/soap/envelope/ Body"`
	}
	if err := xml.Unmarshal(data, &env); err != nil || env.Body.Q.NumarDosar != "1234/3/2024" || !env.Body.Q.DataStop.IsZero() {
		t.Errorf("request reads back as %+v (%v)", env.Body.Q, err)
	}
}

func TestParseDateTime(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Time
	}{
		{"2024-03-14T00:00:00", time.Date(2024, 3, 14, 0, 0, 0, 0, Zone)},
		{"2019-12-17T23:07:20.007", time.Date(2019, 12, 17, 23, 7, 20, 7e6, Zone)},
		{"2024-07-01T08:00:00Z", time.Date(2024, 7, 1, 11, 0, 0, 0, Zone)},
		{"2024-07-01", time.Date(2024, 7, 1, 0, 0, 0, 0, Zone)},
		{"  ", time.Time{}},
	} {
		got, err := ParseDateTime(c.in)
		if err != nil || !got.Equal(c.want) {
			t.Errorf("ParseDateTime(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	if _, err := ParseDateTime("14.03.2024"); err == nil {
		t.Error("ParseDateTime read a date the service never writes")
	}
}

func TestValidNumber(t *testing.T) {
	for _, ok := range []string{"1234/3/2024", "1/1/1999", "1904/3/2018/a1", "12/299/2024/a1.2", "5/2/2020*", "5/2/2020**"} {
		if !ValidNumber(ok) {
			t.Errorf("ValidNumber(%q) = false", ok)
		}
	}
	for _, bad := range []string{"", "0/3/2024", "1234/3/24", "1234-3-2024", "1234/3/2024/b1", "1234/3/2024 ", "<x>/3/2024",
		"12345678/3/2024", "1234/0/2024", "1234/3/2024/a1/a2", strings.Repeat("1", 40)} {
		if ValidNumber(bad) {
			t.Errorf("ValidNumber(%q) = true", bad)
		}
	}
}

func TestKnownCourt(t *testing.T) {
	if n := len(Courts()); n != 246 {
		t.Errorf("%d courts, want the WSDL's 246", n)
	}
	for _, c := range []string{"TribunalulBUCURESTI", "JudecatoriaSECTORUL4BUCURESTI", "CurteadeApelCLUJ", "JudecatoriaDarabani"} {
		if !KnownCourt(c) {
			t.Errorf("KnownCourt(%q) = false", c)
		}
	}
	for _, c := range []string{"", "tribunalulbucuresti", "TribunalulNICAIERI", "Tribunalul Bucuresti"} {
		if KnownCourt(c) {
			t.Errorf("KnownCourt(%q) = true", c)
		}
	}
}

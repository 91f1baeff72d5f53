package portal

import "encoding/xml"

// The service's messages, as its WSDL declares them (document/literal, elements
// qualified in Namespace, in the WSDL's order). Requests name every element the WSDL
// requires; responses read every element the WSDL lists.

// CautareDosare searches court files by number, object, party's name, court and the
// dates of registration. At least one of them must be given.
type CautareDosare struct {
	XMLName     xml.Name `xml:"portalquery.just.ro CautareDosare"`
	NumarDosar  string   `xml:"numarDosar,omitempty"`
	ObiectDosar string   `xml:"obiectDosar,omitempty"`
	NumeParte   string   `xml:"numeParte,omitempty"`
	Institutie  Nillable `xml:"institutie"`
	DataStart   DateTime `xml:"dataStart"`
	DataStop    DateTime `xml:"dataStop"`
}

// CautareDosareResponse answers CautareDosare.
type CautareDosareResponse struct {
	XMLName xml.Name `xml:"portalquery.just.ro CautareDosareResponse"`
	Result  []Dosar  `xml:"CautareDosareResult>Dosar"`
}

// Dosar is one court file: its parties, hearings and appeals, number, court, stage.
type Dosar struct {
	Parti               []DosarParte    `xml:"parti>DosarParte"`
	Sedinte             []DosarSedinta  `xml:"sedinte>DosarSedinta"`
	CaiAtac             []DosarCaleAtac `xml:"caiAtac>DosarCaleAtac"`
	Numar               string          `xml:"numar"`
	NumarVechi          string          `xml:"numarVechi"`
	Data                DateTime        `xml:"data"`
	Institutie          string          `xml:"institutie"`
	Departament         string          `xml:"departament"`
	CategorieCaz        string          `xml:"categorieCaz"`
	StadiuProcesual     string          `xml:"stadiuProcesual"`
	Obiect              string          `xml:"obiect"`
	DataModificare      DateTime        `xml:"dataModificare"`
	CategorieCazNume    string          `xml:"categorieCazNume"`
	StadiuProcesualNume string          `xml:"stadiuProcesualNume"`
}

// DosarParte is a party to a file: its name (personal data) and its standing.
type DosarParte struct {
	Nume          string `xml:"nume"`
	CalitateParte string `xml:"calitateParte"`
}

// DosarSedinta is one hearing of a file: when, before which panel, and its result
// (solutie, the kind; solutieSumar, the operative text) once the court gave one.
type DosarSedinta struct {
	Complet         string   `xml:"complet"`
	Data            DateTime `xml:"data"`
	Ora             string   `xml:"ora"`
	Solutie         string   `xml:"solutie"`
	SolutieSumar    string   `xml:"solutieSumar"`
	DataPronuntare  DateTime `xml:"dataPronuntare"`
	DocumentSedinta string   `xml:"documentSedinta"`
	NumarDocument   string   `xml:"numarDocument"`
	DataDocument    DateTime `xml:"dataDocument"`
}

// DosarCaleAtac is an appeal declared in a file.
type DosarCaleAtac struct {
	DataDeclarare     DateTime `xml:"dataDeclarare"`
	ParteDeclaratoare string   `xml:"parteDeclaratoare"`
	TipCaleAtac       string   `xml:"tipCaleAtac"`
}

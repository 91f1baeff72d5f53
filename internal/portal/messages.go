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

// CautareDosare2 is CautareDosare that also bounds the date of the files' last change.
type CautareDosare2 struct {
	XMLName                   xml.Name `xml:"portalquery.just.ro CautareDosare2"`
	NumarDosar                string   `xml:"numarDosar,omitempty"`
	ObiectDosar               string   `xml:"obiectDosar,omitempty"`
	NumeParte                 string   `xml:"numeParte,omitempty"`
	Institutie                Nillable `xml:"institutie"`
	DataStart                 DateTime `xml:"dataStart"`
	DataStop                  DateTime `xml:"dataStop"`
	DataUltimaModificareStart DateTime `xml:"dataUltimaModificareStart"`
	DataUltimaModificareStop  DateTime `xml:"dataUltimaModificareStop"`
}

// CautareDosareResponse answers CautareDosare.
type CautareDosareResponse struct {
	XMLName xml.Name `xml:"portalquery.just.ro CautareDosareResponse"`
	Result  []Dosar  `xml:"CautareDosareResult>Dosar"`
}

// CautareDosare2Response answers CautareDosare2.
type CautareDosare2Response struct {
	XMLName xml.Name `xml:"portalquery.just.ro CautareDosare2Response"`
	Result  []Dosar  `xml:"CautareDosare2Result>Dosar"`
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

// CautareSedinte lists a court's hearings on a day.
type CautareSedinte struct {
	XMLName     xml.Name `xml:"portalquery.just.ro CautareSedinte"`
	DataSedinta DateTime `xml:"dataSedinta"`
	Institutie  string   `xml:"institutie"`
}

// CautareSedinteResponse answers CautareSedinte.
type CautareSedinteResponse struct {
	XMLName xml.Name  `xml:"portalquery.just.ro CautareSedinteResponse"`
	Result  []Sedinta `xml:"CautareSedinteResult>Sedinta"`
}

// Sedinta is one sitting of a panel: its files.
type Sedinta struct {
	Departament string         `xml:"departament"`
	Complet     string         `xml:"complet"`
	Data        DateTime       `xml:"data"`
	Ora         string         `xml:"ora"`
	Dosare      []SedintaDosar `xml:"dosare>SedintaDosar"`
}

// SedintaDosar is a file heard at a sitting.
type SedintaDosar struct {
	Numar               string   `xml:"numar"`
	NumarVechi          string   `xml:"numar_vechi"`
	Data                DateTime `xml:"data"`
	Ora                 string   `xml:"ora"`
	CategorieCaz        string   `xml:"categorieCaz"`
	StadiuProcesual     string   `xml:"stadiuProcesual"`
	CategorieCazNume    string   `xml:"categorieCazNume"`
	StadiuProcesualNume string   `xml:"stadiuProcesualNume"`
}

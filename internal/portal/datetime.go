package portal

import (
	"encoding/xml"
	"fmt"
	"strings"
	"time"
)

// Zone is the courts' time zone: the service writes its times without an offset, as
// the courts' clocks read them.
var Zone = mustZone("Europe/Bucharest")

// mustZone loads a zone from the zone database, which the lexflow binary embeds
// (time/tzdata).
func mustZone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(fmt.Sprintf("portal: load time zone %s: %v", name, err))
	}
	return loc
}

// dateTimeLayout is how the service writes an xs:dateTime: ASP.NET's DateTime of no
// kind, without an offset ("2019-12-02T00:00:00"), with a fraction when it has one
// ("2019-12-17T23:07:20.007").
const dateTimeLayout = "2006-01-02T15:04:05.999999999"

// DateTime is an xs:dateTime of the service, in Zone. The zero DateTime is a nil one:
// it is written xsi:nil="true", and an empty or nil element reads as it.
type DateTime struct{ time.Time }

// At is the DateTime of t, in Zone.
func At(t time.Time) DateTime { return DateTime{t.In(Zone)} }

// Day is midnight of a day in Zone: the service's dates of hearings and files.
func Day(y int, m time.Month, d int) DateTime { return DateTime{time.Date(y, m, d, 0, 0, 0, 0, Zone)} }

// String is the time as the service writes it, "" for nil.
func (d DateTime) String() string {
	if d.IsZero() {
		return ""
	}
	return d.In(Zone).Format(dateTimeLayout)
}

// ParseDateTime reads an xs:dateTime as the service writes it, or with an offset or
// "Z" as other writers do; a date without a time is midnight.
func ParseDateTime(s string) (DateTime, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return DateTime{}, nil
	}
	for _, layout := range []string{dateTimeLayout, time.RFC3339Nano, time.DateOnly} {
		loc := Zone
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return DateTime{t.In(Zone)}, nil
		}
	}
	return DateTime{}, fmt.Errorf("portal: %q is not an xs:dateTime", s)
}

// nilAttr marks an element of a nillable type that holds nothing.
var nilAttr = xml.Attr{Name: xml.Name{Local: "xsi:nil"}, Value: "true"}

// MarshalXML writes the time, or an element with xsi:nil="true" for nil.
func (d DateTime) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	if d.IsZero() {
		start.Attr = append(start.Attr, nilAttr)
	}
	return e.EncodeElement(d.String(), start)
}

// UnmarshalXML reads the time; an empty or nil element is nil.
func (d *DateTime) UnmarshalXML(dec *xml.Decoder, start xml.StartElement) error {
	var s string
	if err := dec.DecodeElement(&s, &start); err != nil {
		return err
	}
	v, err := ParseDateTime(s)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Nillable is a string of a nillable type (the requests' institutie): empty is
// written xsi:nil="true", as the WSDL's minOccurs="1" nillable="true" asks.
type Nillable string

// MarshalXML writes the string, or an element with xsi:nil="true" when it is empty.
func (n Nillable) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	if n == "" {
		start.Attr = append(start.Attr, nilAttr)
	}
	return e.EncodeElement(string(n), start)
}

package portal

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
)

// SOAP versions' envelope namespaces and media types.
const (
	SOAP11Namespace = "http://schemas.xmlsoap.org/soap/envelope/"
	SOAP12Namespace = "http://www.w3.org/2003/05/soap-envelope"
	// SOAP11MediaType is SOAP 1.1's Content-Type, with its SOAPAction header apart.
	SOAP11MediaType = "text/xml; charset=utf-8"
	// SOAP12MediaType is SOAP 1.2's, whose action is a parameter of it.
	SOAP12MediaType = "application/soap+xml; charset=utf-8"
)

// Envelope writes body (one of the messages) in a SOAP envelope of the version whose
// namespace is ns, as ASP.NET writes them: the XML declaration, then soap, xsi and xsd
// declared on the envelope.
func Envelope(ns string, body any) ([]byte, error) {
	inner, err := xml.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("portal: encode %T: %w", body, err)
	}
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="utf-8"?>`)
	b.WriteString(`<soap:Envelope xmlns:soap="` + ns + `" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">`)
	b.WriteString(`<soap:Body>`)
	b.Write(inner)
	b.WriteString(`</soap:Body></soap:Envelope>`)
	return b.Bytes(), nil
}

// Fault is a SOAP fault, of either version: 1.1's faultcode and faultstring, or
// 1.2's Code/Value and Reason/Text.
type Fault struct {
	Code11   string `xml:"faultcode"`
	String11 string `xml:"faultstring"`
	Code12   string `xml:"Code>Value"`
	Reason12 string `xml:"Reason>Text"`
}

// Code is the fault's code without its prefix: "Client" or "Server" (SOAP 1.1),
// "Sender" or "Receiver" (SOAP 1.2).
func (f *Fault) Code() string {
	c := f.Code11 + f.Code12
	if _, local, ok := strings.Cut(c, ":"); ok {
		return local
	}
	return c
}

// Reason is the fault's text.
func (f *Fault) Reason() string { return strings.TrimSpace(f.String11 + f.Reason12) }

// Error says the fault.
func (f *Fault) Error() string { return "portal: SOAP fault " + f.Code() + ": " + f.Reason() }

// Sender reports whether the fault blames the request (Client, Sender): sending it
// again fails again.
func (f *Fault) Sender() bool { return f.Code() == "Client" || f.Code() == "Sender" }

// envelopeOf reads a SOAP envelope, of either version, whose body holds a T or a fault.
type envelopeOf[T any] struct {
	XMLName xml.Name `xml:"Envelope"`
	Body    struct {
		Fault  *Fault `xml:"Fault"`
		Result *T     `xml:",any"`
	} `xml:"Body"`
}

// DecodeEnvelope reads an envelope holding a T; a fault in it is returned as *Fault,
// an envelope holding neither is an error.
func DecodeEnvelope[T any](data []byte) (*T, error) {
	var env envelopeOf[T]
	if err := xml.Unmarshal(data, &env); err != nil {
		return nil, fmt.Errorf("portal: decode envelope: %w", err)
	}
	switch {
	case env.Body.Fault != nil:
		return nil, env.Body.Fault
	case env.Body.Result == nil:
		return nil, fmt.Errorf("portal: the envelope's body holds no %T", *new(T))
	}
	return env.Body.Result, nil
}

// FaultEnvelope writes a fault in an envelope of the version whose namespace is ns;
// sender says whether the request is to blame (Client or Sender) or the service
// (Server or Receiver).
func FaultEnvelope(ns string, sender bool, reason string) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="utf-8"?>`)
	b.WriteString(`<soap:Envelope xmlns:soap="` + ns + `" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body><soap:Fault>`)
	var text bytes.Buffer
	_ = xml.EscapeText(&text, []byte(reason))
	if ns == SOAP12Namespace {
		code := "soap:Receiver"
		if sender {
			code = "soap:Sender"
		}
		b.WriteString(`<soap:Code><soap:Value>` + code + `</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">` + text.String() + `</soap:Text></soap:Reason><soap:Detail />`)
	} else {
		code := "soap:Server"
		if sender {
			code = "soap:Client"
		}
		b.WriteString(`<faultcode>` + code + `</faultcode><faultstring>` + text.String() + `</faultstring><detail />`)
	}
	b.WriteString(`</soap:Fault></soap:Body></soap:Envelope>`)
	return b.Bytes()
}

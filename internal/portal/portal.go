// Package portal is a client for the Romanian courts' portal query service
// (portalquery.just.ro/query.asmx, the SOAP service behind portal.just.ro): court
// files by number, party, court and dates (CautareDosare), which the court watch
// reads a linked file by. Its messages follow the service's WSDL
// (document/literal, namespace "portalquery.just.ro"); package portaltest serves the
// same wire format on loopback for tests.
package portal

// Namespace is the service's XML namespace, its WSDL's targetNamespace.
const Namespace = "portalquery.just.ro"

// OpCautareDosare is the operation Lexflow calls, also the last part of its
// SOAPAction ("portalquery.just.ro/CautareDosare").
const OpCautareDosare = "CautareDosare"

// SOAPAction is the SOAP 1.1 SOAPAction header (and SOAP 1.2 action parameter) of an
// operation.
func SOAPAction(op string) string { return Namespace + "/" + op }

package portal

import (
	_ "embed"
	"slices"
	"strings"
)

// institutii is the WSDL's Institutie enumeration, one court's code a line, in the
// WSDL's order (taken from the service's WSDL as published with
// github.com/infrasoft/INTEGR-JUST-RO, src/main/resources/wsdl/Just.wsdl).
//
//go:embed institutii.txt
var institutii string

// courts is institutii split, sorted for lookups.
var courts = func() []string {
	out := strings.Fields(institutii)
	slices.Sort(out)
	return out
}()

// Courts returns the codes of every court the service knows (Institutie values such
// as "TribunalulBUCURESTI"), sorted.
func Courts() []string { return slices.Clone(courts) }

// KnownCourt reports whether code is one of the service's Institutie values, spelled
// exactly (the service is case-sensitive: "JudecatoriaDarabani" is one).
func KnownCourt(code string) bool {
	_, ok := slices.BinarySearch(courts, code)
	return ok
}

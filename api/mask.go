package api

import (
	"slices"
	"strconv"
	"strings"

	"github.com/lexflow/lexflow/internal/pii"
	"github.com/lexflow/lexflow/store"
)

// personalKeys are argument names whose values are personal data whatever they hold,
// matched on a dotted name's last part ("client.cnp"); personalParts are parts of
// names that say the same ("opponent_phone_number", "client_name").
var (
	personalKeys  = []string{"name", "aliases", "cnp", "cui", "address", "email", "phone", "iban", "codice_fiscale", "birth_date", "date_of_birth"}
	personalParts = []string{"name", "phone", "email", "address", "iban", "cnp", "fiscal", "birth"}
)

// caseDataKey holds update_case_details's changes: case data, every value of which is
// masked, its field names kept.
const caseDataKey = "updates"

// Masks in the audit log.
const (
	maskedValue = "[masked]"
	maskedParty = "[party]"
)

// maskArgs is a copy of a tool's decoded JSON arguments fit for the audit log, which
// outlives the case: values under personal keys and under "updates" become
// "[masked]"; in other texts the case's parties' names, aliases, numbers and
// addresses become "[party]" and personal data found by its form (pii.Find) its
// kind; numbers of nine digits or more (a CNP sent as a number) are masked.
func maskArgs(v any, parties pii.Names) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			switch {
			case x == nil:
				out[k] = nil
			case personalKey(k) || k == caseDataKey:
				out[k] = maskAll(x)
			default:
				out[k] = maskArgs(x, parties)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = maskArgs(x, parties)
		}
		return out
	case string:
		return pii.Mask(parties.Mask(v, maskedParty))
	case float64:
		if len(strconv.FormatFloat(v, 'f', -1, 64)) >= 9 {
			return maskedValue
		}
	}
	return v
}

// maskAll masks every value of v, keeping the names of its fields.
func maskAll(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = maskAll(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = maskAll(x)
		}
		return out
	case nil, bool:
		return v
	}
	return maskedValue
}

// personalKey reports whether an argument of that name holds personal data.
func personalKey(k string) bool {
	k = strings.ToLower(k)
	last := k[strings.LastIndexByte(k, '.')+1:]
	return slices.Contains(personalKeys, last) || slices.ContainsFunc(personalParts, func(p string) bool { return strings.Contains(last, p) })
}

// partyNames are what names a case's parties in a text.
func partyNames(ps []store.Party) pii.Names {
	var names []string
	for _, p := range ps {
		names = append(names, strings.TrimSpace(p.FirstName+" "+p.LastName), strings.TrimSpace(p.LastName+" "+p.FirstName),
			p.FirstName, p.LastName, p.CompanyName, p.CNP, p.CUI, p.Address, p.Email)
		names = append(names, p.Aliases...)
	}
	return pii.NewNames(names...)
}

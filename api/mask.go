package api

import (
	"slices"
	"strings"

	"github.com/lexflow/lexflow/internal/pii"
	"github.com/lexflow/lexflow/store"
)

// personalKeys are argument names whose values are personal data whatever they hold.
var personalKeys = []string{"first_name", "last_name", "company_name", "name", "full_name", "mentioned_name", "aliases",
	"cnp", "cui", "address", "email", "phone", "iban", "codice_fiscale", "birth_date", "date_of_birth"}

// Masks in the audit log.
const (
	maskedValue = "[masked]"
	maskedParty = "[party]"
)

// maskArgs is a copy of a tool's decoded JSON arguments fit for the audit log: values
// under personalKeys become "[masked]", the case's parties' names, aliases, numbers
// and addresses "[party]", and personal data found by its form (pii.Find) its kind.
func maskArgs(v any, parties pii.Names) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			if slices.Contains(personalKeys, strings.ToLower(k)) && x != nil {
				out[k] = maskedValue
				continue
			}
			out[k] = maskArgs(x, parties)
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
	}
	return v
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

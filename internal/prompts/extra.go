package prompts

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lexflow/lexflow/schemas"
)

// extra is a document beyond the roles' own files that joins some of their prompts,
// as its front matter says: a first line "---", then "role: <role>" and, optionally,
// "language: <en|ro|it>" (every language when left out), then "---" and the text.
// AIR Coach (seed 002) combined every Markdown document into its one prompt; here each
// names the prompts it belongs to.
type extra struct {
	name  string
	role  schemas.ModelRole
	langs []string
	text  string
}

// ownFile reports whether base (a file's name without ".md") is one of the files the
// library knows by name: a role's, the tier definitions' or the warning's.
func ownFile(base string) bool {
	stem, lang, ok := strings.Cut(base, ".")
	if !ok || !slices.Contains(schemas.Languages, lang) {
		return false
	}
	if stem == warningDoc || stem == tiersDoc {
		return true
	}
	return slices.Contains(Roles, schemas.ModelRole(stem))
}

// parseExtra reads a document's front matter. ok is false for a document without
// any, which joins no prompt; a front matter naming no role, an unknown role or an
// unknown language is an error, so that a reload refuses it.
func parseExtra(name, raw string) (e extra, ok bool, err error) {
	rest, found := strings.CutPrefix(raw, "---\n")
	if !found {
		return extra{}, false, nil
	}
	head, body, found := strings.Cut(rest, "\n---")
	if !found {
		return extra{}, false, fmt.Errorf("prompts: %s: its front matter has no closing ---", name)
	}
	e = extra{name: name, text: strings.TrimSpace(strings.TrimPrefix(body, "\n")), langs: schemas.Languages}
	for _, line := range strings.Split(head, "\n") {
		key, value, _ := strings.Cut(line, ":")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch key {
		case "role":
			if !slices.Contains(Roles, schemas.ModelRole(value)) {
				return extra{}, false, fmt.Errorf("prompts: %s: role %q is none of %v", name, value, Roles)
			}
			e.role = schemas.ModelRole(value)
		case "language":
			if !slices.Contains(schemas.Languages, value) {
				return extra{}, false, fmt.Errorf("prompts: %s: language %q is none of %v", name, value, schemas.Languages)
			}
			e.langs = []string{value}
		case "":
		default:
			return extra{}, false, fmt.Errorf("prompts: %s: front matter key %q is neither role nor language", name, key)
		}
	}
	if e.role == "" {
		return extra{}, false, fmt.Errorf("prompts: %s: its front matter names no role", name)
	}
	return e, true, nil
}

// forLabel says which prompts an extra document joins, as the load's report shows it.
func (e extra) forLabel() string {
	if len(e.langs) == 1 {
		return string(e.role) + "." + e.langs[0]
	}
	return string(e.role) + ".*"
}

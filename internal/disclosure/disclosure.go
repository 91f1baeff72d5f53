// Package disclosure words the line a draft carries to say that AI helped write it
// (Italian L. 132/2025, art. 13: a professional tells the client when AI systems were
// used in the work), in the case's language: Lexflow's defaults, which an
// organization's admin may replace, and the checks on the admin's wording.
package disclosure

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxChars bounds an organization's wording: a line or two in a draft's footer.
const MaxChars = 200

// Texts are Lexflow's wordings, by case language.
var Texts = map[string]string{
	"it": "Documento predisposto con l'ausilio di un sistema di intelligenza artificiale (Lexflow), ai sensi dell'art. 13 della L. 132/2025.",
	"ro": "Document redactat cu ajutorul unui sistem de inteligență artificială (Lexflow).",
	"en": "This document was drafted with the help of an artificial intelligence system (Lexflow).",
}

// On says, by case language, whether drafts carry the line when their organization
// set nothing. Italian: on, since L. 132/2025 art. 13 asks it of professionals. Romanian
// and English: off, since no rule we know of asks it of a draft in those cases, and a
// draft the client files in their own name should not carry a line they did not
// choose; an organization switches it on.
var On = map[string]bool{"it": true, "ro": false, "en": false}

// Line is the disclosure a draft of a case in lang carries, given its organization's
// wordings and switches (nil maps for none set): "" when it is off.
func Line(lang string, texts map[string]string, on map[string]bool) string {
	enabled, set := on[lang]
	if !set {
		enabled = On[lang]
	}
	if !enabled {
		return ""
	}
	if t := texts[lang]; t != "" {
		return t
	}
	if t, ok := Texts[lang]; ok {
		return t
	}
	return Texts["en"]
}

// ErrInvalid means an organization's wording or switch cannot be used.
var ErrInvalid = errors.New("invalid disclosure")

// Check returns an error wrapping ErrInvalid, naming the language, unless every key
// of texts and on is one of languages and every wording is one line of printable text
// of 1 to MaxChars characters with no spaces around it.
func Check(languages []string, texts map[string]string, on map[string]bool) error {
	known := func(lang string) bool { return slices.Contains(languages, lang) }
	for lang := range on {
		if !known(lang) {
			return fmt.Errorf("%w: %q is not a language (%s)", ErrInvalid, lang, strings.Join(languages, ", "))
		}
	}
	for lang, t := range texts {
		switch {
		case !known(lang):
			return fmt.Errorf("%w: %q is not a language (%s)", ErrInvalid, lang, strings.Join(languages, ", "))
		case !utf8.ValidString(t) || t == "" || strings.TrimSpace(t) != t:
			return fmt.Errorf("%w: the %s text must be non-empty, with no spaces around it", ErrInvalid, lang)
		case utf8.RuneCountInString(t) > MaxChars:
			return fmt.Errorf("%w: the %s text has %d characters, at most %d", ErrInvalid, lang, utf8.RuneCountInString(t), MaxChars)
		case strings.ContainsFunc(t, func(r rune) bool { return !unicode.IsPrint(r) }):
			return fmt.Errorf("%w: the %s text must be one line of printable characters", ErrInvalid, lang)
		}
	}
	return nil
}

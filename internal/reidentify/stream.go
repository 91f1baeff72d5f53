package reidentify

import (
	"strings"

	"github.com/lexflow/lexflow/internal/pseudonym"
)

// maxHeld bounds what a Stream holds back: a text longer than any placeholder that
// has not closed is not one, and goes out as it is.
const maxHeld = 64

// Stream re-identifies a text that comes in pieces (a model's streamed reply), where
// a placeholder may be split across pieces ("{{party0." then "lastName}}"): it holds
// back the end of what came while that end may still become a placeholder, and
// releases it once it is one, or cannot be. Not safe for concurrent use.
type Stream struct {
	parties []pseudonym.Party
	held    string
}

// NewStream returns a Stream that re-identifies with parties.
func NewStream(parties []pseudonym.Party) *Stream { return &Stream{parties: parties} }

// Write takes the next piece and returns the text that can go to the client now,
// re-identified; it may be empty.
func (s *Stream) Write(piece string) string {
	text := s.held + piece
	cut := len(text)
	for i := max(len(text)-maxHeld, 0); i < len(text); i++ {
		if text[i] == '{' && opening(text[i:]) {
			cut = i
			break
		}
	}
	s.held = text[cut:]
	return Text(text[:cut], s.parties)
}

// Flush returns what the Stream still holds, re-identified as far as it can be: the
// end of the text.
func (s *Stream) Flush() string {
	text := s.held
	s.held = ""
	return Text(text, s.parties)
}

// opening reports whether t is the start of a placeholder not closed yet: "{", "{{",
// "{{ party1", "{{party1.last", "{{party1.lastName }".
func opening(t string) bool {
	rest, ok := strings.CutPrefix(t, "{")
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	if rest, ok = strings.CutPrefix(rest, "{"); !ok {
		return false
	}
	rest = strings.TrimLeft(rest, " \t\n")
	if len(rest) <= len("party") {
		return strings.HasPrefix("party", rest)
	}
	if rest, ok = strings.CutPrefix(rest, "party"); !ok {
		return false
	}
	digits := strings.TrimLeft(rest, "0123456789")
	if digits == "" {
		return true
	}
	if len(digits) == len(rest) {
		return false // no digit after "party"
	}
	field, ok := strings.CutPrefix(digits, ".")
	if !ok {
		return false
	}
	name := strings.TrimLeft(field, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
	if len(name) == len(field) && name != "" {
		return false // a field must start with a letter, digit or underscore
	}
	end := strings.TrimLeft(name, " \t\n")
	return end == "" || end == "}"
}

package reidentify

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lexflow/lexflow/internal/pseudonym"
)

var parties = []pseudonym.Party{
	{ID: "party0", FirstName: "Ion", LastName: "Popescu", CNP: "1800101221144"},
	{ID: "party1", CompanyName: "Acme SRL"},
}

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"{{party0.fullName}} owes {{ party1.name }} rent": "Ion Popescu owes Acme SRL rent",
		"CNP {{party0.cnp}}, {{party0.lastName}}":         "CNP 1800101221144, Popescu",
		"{{party2.lastName}} and {{party0.shoeSize}}":     "{{party2.lastName}} and {{party0.shoeSize}}",
		"{{party1.email}} {{doc.cnp.1}}":                  "{{party1.email}} {{doc.cnp.1}}",
		"no placeholder {{ at all":                        "no placeholder {{ at all",
	} {
		if got := Text(in, parties); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestValue(t *testing.T) {
	in := map[string]any{"summary": map[string]any{"current": "{{party0.fullName}} paid"}, "facts": []any{"{{party1.name}}", 3.0}}
	want := map[string]any{"summary": map[string]any{"current": "Ion Popescu paid"}, "facts": []any{"Acme SRL", 3.0}}
	if got := Value(in, parties); !reflect.DeepEqual(got, want) {
		t.Errorf("Value = %v, want %v", got, want)
	}
	if in["summary"].(map[string]any)["current"] != "{{party0.fullName}} paid" {
		t.Error("Value changed its argument")
	}
}

// TestStreamSplits feeds a reply cut at every pair of places, placeholders split
// anywhere ("{{party0." then "lastName}}"): the pieces the Stream releases make the
// whole reply re-identified, and none holds a piece of a placeholder.
func TestStreamSplits(t *testing.T) {
	reply := "Dear {{party0.firstName}}, {{ party1.name }} claims {x} from {{party0.lastName}} {{party0.cnp}}{{party9.name}}{"
	want := Text(reply, parties)
	for i := 0; i <= len(reply); i++ {
		for j := i; j <= len(reply); j++ {
			s := NewStream(parties)
			var got strings.Builder
			for _, piece := range []string{reply[:i], reply[i:j], reply[j:]} {
				out := s.Write(piece)
				if strings.Contains(out, "{{party0") || strings.Contains(out, "{{ party1") {
					t.Fatalf("split at %d, %d: released %q", i, j, out)
				}
				got.WriteString(out)
			}
			got.WriteString(s.Flush())
			if got.String() != want {
				t.Fatalf("split at %d, %d: got %q, want %q", i, j, got.String(), want)
			}
		}
	}
}

// TestStreamByteByByte feeds the reply a byte at a time: what is held back stays
// bounded, and text that cannot be a placeholder goes out at once.
func TestStreamByteByByte(t *testing.T) {
	s := NewStream(parties)
	var got strings.Builder
	reply := "{{party0.fullName}} " + strings.Repeat("{", 100) + " done"
	for i := range len(reply) {
		got.WriteString(s.Write(reply[i : i+1]))
		if len(s.held) > maxHeld {
			t.Fatalf("holds %d bytes", len(s.held))
		}
	}
	if out := s.Write(" "); !strings.HasSuffix(got.String()+out, "done ") {
		t.Errorf("text after the braces was held: %q", got.String()+out)
	}
	if got.String() == "" || !strings.HasPrefix(got.String(), "Ion Popescu ") {
		t.Errorf("released %q", got.String())
	}
}

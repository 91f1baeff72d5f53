package api

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/payments"
	"github.com/lexflow/lexflow/schemas"
)

// FuzzRequestDecoders feeds arbitrary bodies and Idempotency-Keys to the decoders the
// routes share: a body is a request or a bad-json problem, a toggles set resolves to
// tools the roles may use or an invalid-input problem, a key is accepted only when it
// is short printable ASCII, and an amount only when ParsePrice can read it back.
func FuzzRequestDecoders(f *testing.F) {
	f.Add([]byte(`{"message": "hello", "tools": ["get_case_details"], "use_memory_retrieval": true}`), "key-1", "149.00 EUR")
	f.Add([]byte(`{"message": "x", "normattiva_enabled": false}{}`), "k\x00", "1e9 EUR")
	f.Add([]byte(`[1,2,3]`), strings.Repeat("k", 300), "-5 eur")
	f.Add([]byte(`{"message": null, "tools": [null]}`), "é", "0.001 EUR")
	e := echo.New()
	f.Fuzz(func(t *testing.T, body []byte, key, amount string) {
		req := httptest.NewRequest("POST", "/v1/cases/x/messages", strings.NewReader(string(body)))
		req.Header.Set("Idempotency-Key", key)
		c := e.NewContext(req, httptest.NewRecorder())
		var msg SendMessageRequest
		if err := bindJSON(c, &msg); err != nil {
			if !errors.Is(err, errBadJSON) {
				t.Fatalf("bindJSON error %v is not bad-json", err)
			}
		} else if sel, err := msg.Resolve([]string{schemas.RoleUser}, nil); err != nil {
			if !errors.Is(err, errInvalidInput) && !strings.Contains(err.Error(), "tool") {
				t.Fatalf("Resolve error %v", err)
			}
		} else {
			for _, name := range sel.Tools {
				if name == schemas.ToolLegalSQL {
					t.Fatalf("a user's request resolved to the admin tool %s", name)
				}
			}
		}
		got, err := idempotencyKey(c)
		ok := len(key) <= maxIdempotencyKey && !strings.ContainsFunc(key, func(r rune) bool { return r < ' ' || r > '~' })
		if (err == nil) != ok || (err == nil && got != key) {
			t.Fatalf("idempotencyKey(%q) = %q, %v", key, got, err)
		}
		if p, err := payments.ParsePrice(amount); err == nil {
			if p.Amount <= 0 || len(p.Currency) != 3 {
				t.Fatalf("ParsePrice(%q) = %+v", amount, p)
			}
			if again, err := payments.ParsePrice(p.String()); err != nil || again != p {
				t.Fatalf("ParsePrice(%q) = %+v, but its String %q reads back as %+v, %v", amount, p, p.String(), again, err)
			}
		}
	})
}

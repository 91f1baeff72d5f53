package payments

import (
	"reflect"
	"testing"

	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/schemas"
)

func TestParsePrices(t *testing.T) {
	got, err := ParsePrices("1=49.00 EUR, 2=149 eur,3=399.50 RON", 1, 3)
	want := Prices{1: {4900, "eur"}, 2: {14900, "eur"}, 3: {39950, "ron"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("ParsePrices = %v, %v; want %v", got, err, want)
	}
	if s := got[3].String(); s != "399.50 RON" {
		t.Errorf("String = %q", s)
	}
	for _, bad := range []string{"", "1=49.00 EUR,2=149.00 EUR", "1=49.00 EUR,2=149.00 EUR,3=0 EUR", "0=1 EUR,1=1 EUR,2=1 EUR,3=1 EUR",
		"1=49.0 EUR,2=1 EUR,3=1 EUR", "1=+49 EUR,2=1 EUR,3=1 EUR", "1=-49 EUR,2=1 EUR,3=1 EUR", "1=49 EURO,2=1 EUR,3=1 EUR",
		"1=49EUR,2=1 EUR,3=1 EUR", "1=99999999999 EUR,2=1 EUR,3=1 EUR", "1=4e3 EUR,2=1 EUR,3=1 EUR"} {
		if p, err := ParsePrices(bad, 1, 3); err == nil {
			t.Errorf("ParsePrices(%q) = %v, want an error", bad, p)
		}
	}
}

// TestConfigDefaults checks what package config declares for payments, which it holds
// as plain strings: the default price table parses, and the default Stripe API is
// StripeAPI.
func TestConfigDefaults(t *testing.T) {
	for _, v := range config.Vars {
		switch v.Name {
		case "LEXFLOW_PRICES":
			if _, err := ParsePrices(v.Default, schemas.MinTier, schemas.MaxTier); err != nil {
				t.Errorf("LEXFLOW_PRICES's default %q: %v", v.Default, err)
			}
		case "LEXFLOW_STRIPE_API":
			if v.Default != StripeAPI {
				t.Errorf("LEXFLOW_STRIPE_API's default %q, want %q", v.Default, StripeAPI)
			}
		}
	}
}

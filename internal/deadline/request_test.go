package deadline

import (
	"errors"
	"strings"
	"testing"
)

// TestInvalidRequests checks that every malformed or hostile request is refused as
// Invalid, without its input quoted back, before any counting.
func TestInvalidRequests(t *testing.T) {
	ok := ro("2025-03-03", 3, Days)
	huge := strings.Repeat("9", 10_000)
	for name, mutate := range map[string]func(*Request){
		"unknown jurisdiction":          func(r *Request) { r.Jurisdiction = "fr" },
		"no jurisdiction":               func(r *Request) { r.Jurisdiction = "" },
		"unknown unit":                  func(r *Request) { r.Unit = "hours" },
		"unknown direction":             func(r *Request) { r.Direction = "sideways" },
		"unknown code":                  func(r *Request) { r.Code = "cpp" },
		"date not YYYY-MM-DD":           func(r *Request) { r.From = "03/03/2025" },
		"date unpadded":                 func(r *Request) { r.From = "2025-3-3" },
		"date impossible":               func(r *Request) { r.From = "2025-02-30" },
		"date with a time":              func(r *Request) { r.From = "2025-03-03T00:00:00Z" },
		"date huge":                     func(r *Request) { r.From = huge },
		"date before 2015":              func(r *Request) { r.From = "2014-12-31" },
		"date after 2099":               func(r *Request) { r.From = "2100-01-01" },
		"amount zero":                   func(r *Request) { r.Amount = 0 },
		"amount negative":               func(r *Request) { r.Amount = -5 },
		"amount over 100 years of days": func(r *Request) { r.Amount = 36526 },
		"amount over 100 years":         func(r *Request) { r.Unit, r.Amount = Years, 101 },
		"amount over 1200 months":       func(r *Request) { r.Unit, r.Amount = Months, 1201 },
		"amount absurd":                 func(r *Request) { r.Amount = 1 << 62 },
		"suspension in Romania":         func(r *Request) { r.Suspension = ptr(true) },
		"suspension with the civil code": func(r *Request) {
			r.Jurisdiction, r.Code, r.Suspension = Italy, CodeCC, ptr(true)
		},
		"ends after 2099": func(r *Request) { r.From, r.Unit, r.Amount = "2099-06-01", Years, 1 },
		"ends before 2015": func(r *Request) {
			r.From, r.Unit, r.Amount, r.Direction = "2015-01-05", Weeks, 2, Backward
		},
	} {
		req := ok
		mutate(&req)
		_, err := Compute(req)
		var inv Invalid
		if !errors.As(err, &inv) {
			t.Errorf("%s: err = %v, want Invalid", name, err)
			continue
		}
		if strings.Contains(inv.Error(), "9999") || len(inv.Error()) > 200 {
			t.Errorf("%s: the message quotes the input or runs long: %q", name, inv)
		}
	}
	if _, err := Compute(ok); err != nil {
		t.Errorf("the valid request: %v", err)
	}
}

// TestLongestTermsAreBounded computes the longest terms each unit allows, the
// suspension counted day by day: from 2015 they would end past 2099 and are refused as
// Invalid; 77 years from 2015 (84 with the Italian suspensions) end within the years covered.
func TestLongestTermsAreBounded(t *testing.T) {
	within := map[string]int{Days: 77 * 365, Weeks: 77 * 52, Months: 77 * 12, Years: 77}
	for unit, most := range maxAmount {
		for _, j := range []string{Romania, Italy} {
			_, err := Compute(Request{Jurisdiction: j, From: "2015-01-01", Amount: most, Unit: unit})
			if inv := Invalid(""); !errors.As(err, &inv) {
				t.Errorf("%s %d %s from 2015: err = %v, want Invalid", j, most, unit, err)
			}
			a, err := Compute(Request{Jurisdiction: j, From: "2015-01-01", Amount: within[unit], Unit: unit})
			if err != nil || a.Due < "2091" {
				t.Errorf("%s %d %s from 2015: %s, %v", j, within[unit], unit, a.Due, err)
			}
		}
	}
}

// TestDefaults: direction forward, code cpc, and Italy's suspension on unless said.
func TestDefaults(t *testing.T) {
	tm, err := parse(it("2024-07-15", 30, Days))
	if err != nil || tm.backward || tm.code != CodeCPC || !tm.suspension {
		t.Errorf("defaults = %+v, %v", tm, err)
	}
	tm, err = parse(ro("2024-07-15", 30, Days))
	if err != nil || tm.suspension {
		t.Errorf("Romania has no suspension: %+v, %v", tm, err)
	}
}

// BenchmarkLongestTerm times about the costliest request the route takes: 27,000 days
// in Italy, counted a day at a time across 74 August suspensions and moved off a
// holiday (backward, from 2099, to stay within the years covered).
func BenchmarkLongestTerm(b *testing.B) {
	req := Request{Jurisdiction: Italy, From: "2099-12-31", Amount: 27000, Unit: Days, Direction: Backward}
	for b.Loop() {
		if _, err := Compute(req); err != nil {
			b.Fatal(err)
		}
	}
}

// Package deadline computes procedural time limits by the Romanian and Italian codes'
// rules, and shows the reasoning: every rule applied with its article, and every day
// skipped with why. It is pure: no clock, no store, no Temporal; a caller passes the
// day a term starts from and gets the day it ends on. It is help, not legal advice.
package deadline

import (
	"fmt"
	"time"
)

// Jurisdictions.
const (
	Romania = "ro"
	Italy   = "it"
)

// Units a term is counted in.
const (
	Days   = "days"
	Weeks  = "weeks"
	Months = "months"
	Years  = "years"
)

// Directions: forward from an event (a communication, a judgment), or backward from a
// later day (a hearing) for acts due some time before it ("termini a ritroso").
const (
	Forward  = "forward"
	Backward = "backward"
)

// Codes whose counting rules apply: the code of civil procedure, or the civil code's
// own rules (Romania's art. 2551–2554 C.civ., Italy's art. 2963 c.c.).
const (
	CodeCPC = "cpc"
	CodeCC  = "cc"
)

// Request is one term to compute.
type Request struct {
	// Jurisdiction is ro or it.
	Jurisdiction string `json:"jurisdiction"`
	// From is the day the term runs from (forward) or back from (backward), YYYY-MM-DD.
	From string `json:"from"`
	// Amount is how many units the term lasts, at least 1 and at most 100 years' worth.
	Amount int `json:"amount"`
	// Unit is days, weeks, months or years.
	Unit string `json:"unit"`
	// Direction is forward unless said.
	Direction string `json:"direction,omitempty"`
	// Code is cpc unless said; cc for the civil code's rules.
	Code string `json:"code,omitempty"`
	// Suspension, for Italy's code of civil procedure only, says whether the August
	// suspension of L. 742/1969 applies (true unless said); labour, urgent and
	// precautionary proceedings are exempt, and their caller says false.
	Suspension *bool `json:"suspension,omitempty"`
}

// Answer is a computed term: the day it ends, the instant that day ends in the
// court's zone, and the reasoning.
type Answer struct {
	// Due is the last day the act can be done, YYYY-MM-DD.
	Due string `json:"due"`
	// EndsAt is 24:00 of Due in Zone (art. 182 alin. (1) C.proc.civ., art. 2963 c.c.):
	// the instant the term runs out, for timers.
	EndsAt time.Time `json:"ends_at"`
	// Zone is the court's time zone, Europe/Bucharest or Europe/Rome.
	Zone string `json:"zone"`
	// Rules are the rules applied, in order, each with its article.
	Rules []Rule `json:"rules"`
	// NonWorking are the days the computation stepped over, and why.
	NonWorking []Skipped `json:"non_working"`
}

// Rule is one rule applied: a stable ID a client can translate, the article it comes
// from, and what it did to this term.
type Rule struct {
	ID      string `json:"id"`
	Article string `json:"article"`
	Detail  string `json:"detail"`
}

// Skipped is a day, or a run of days ending on To, that the computation stepped over:
// a weekend or public holiday that moved the last day, or a suspension that stopped
// the count.
type Skipped struct {
	Date   string `json:"date"`
	To     string `json:"to,omitempty"`
	Reason string `json:"reason"`
}

// Invalid is a request the rules cannot compute, with what is wrong in words a caller
// can show; it never quotes the input back.
type Invalid string

func (e Invalid) Error() string { return string(e) }

// Compute computes a term. A request that is not one of the documented shapes is an
// Invalid error; any other error is Lexflow's own (a time zone missing from the binary).
func Compute(req Request) (Answer, error) {
	t, err := parse(req)
	if err != nil {
		return Answer{}, err
	}
	var c computation
	switch t.jurisdiction {
	case Romania:
		c = computeRO(t)
	default:
		c = computeIT(t)
	}
	if c.due.Before(firstDay) || c.due.After(lastDay) {
		return Answer{}, Invalid(fmt.Sprintf("the term would end on %s, outside the years covered (%d–%d)", day(c.due), firstDay.Year(), lastDay.Year()))
	}
	zone, err := courtZone(t.jurisdiction)
	if err != nil {
		return Answer{}, err
	}
	if c.skipped == nil {
		c.skipped = []Skipped{} // an empty list, not null: a client reads it without checking
	}
	return Answer{Due: day(c.due), EndsAt: endOfDay(c.due, zone), Zone: zone.String(),
		Rules: c.rules, NonWorking: c.skipped}, nil
}

// computation is a term being worked out: its current last day, and the rules and
// skipped days that led there.
type computation struct {
	due     time.Time
	rules   []Rule
	skipped []Skipped
}

// apply records a rule.
func (c *computation) apply(id, article, format string, args ...any) {
	c.rules = append(c.rules, Rule{ID: id, Article: article, Detail: fmt.Sprintf(format, args...)})
}

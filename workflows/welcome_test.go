package workflows

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/schemas"
)

// TestCaseWelcomesItsClientOnce: a new case's first notice is seed 003's greeting in
// the case's language, with Lexflow's name and what happens next, before tiering's
// reply; a run continued as new, which carries its state, does not greet again.
func TestCaseWelcomesItsClientOnce(t *testing.T) {
	for _, lang := range []string{"ro", "it", "en"} {
		t.Run(lang, func(t *testing.T) {
			var notices []schemas.Notice
			env := newCaseEnvWith(t, caseEnvOptions{notices: &notices})
			env.RegisterDelayedCallback(env.CancelWorkflow, time.Minute)
			in := caseIn
			in.Language = lang
			env.ExecuteWorkflow(Case, in)

			if len(notices) < 2 {
				t.Fatalf("notices = %+v, want the welcome and tiering's reply", notices)
			}
			first := notices[0]
			if first.N != 1 || first.Role != schemas.RecordAssistant || first.Text != welcomes[lang] {
				t.Errorf("first notice = %+v, want notice 1 from the assistant saying %q", first, welcomes[lang])
			}
			if !strings.Contains(first.Text, "Lexflow") || strings.Contains(first.Text, "Relex") {
				t.Errorf("welcome %q: want Lexflow's name, not Relex's", first.Text)
			}
			tier := strings.SplitN(caseWordsFor(lang).tier, ":", 2)[0]
			if !strings.HasPrefix(notices[1].Text, tier) {
				t.Errorf("second notice = %q, want tiering's reply (%q...)", notices[1].Text, tier)
			}
			if n := slices.IndexFunc(notices[1:], func(n schemas.Notice) bool { return n.Text == welcomes[lang] }); n >= 0 {
				t.Errorf("the welcome was written again as notice %d", notices[n+1].N)
			}
		})
	}

	t.Run("continued as new", func(t *testing.T) {
		said := &[]string{}
		env := newCaseEnvWith(t, caseEnvOptions{said: said})
		env.RegisterDelayedCallback(env.CancelWorkflow, time.Minute)
		in := caseIn
		in.State = &schemas.CaseState{CaseID: "c1", UserID: "alice", Phase: schemas.PhaseActive, Status: schemas.StatusOpen, Turns: 3, Runs: 1, Notices: 2}
		env.ExecuteWorkflow(Case, in)
		if slices.Contains(*said, welcomes["en"]) {
			t.Errorf("a continued run greeted again: notices %q", *said)
		}
	})
}

// TestWelcomesSayWhatHappensNext: every language's greeting names the tier and the
// subscription check, the two steps that follow.
func TestWelcomesSayWhatHappensNext(t *testing.T) {
	steps := map[string][]string{
		"en": {"case tier", "subscription"},
		"ro": {"nivelul cazului", "abonamentul"},
		"it": {"livello del caso", "abbonamento"},
	}
	for _, lang := range schemas.Languages {
		w, ok := welcomes[lang]
		if !ok {
			t.Errorf("no welcome in %s", lang)
			continue
		}
		if !containsAll(w, steps[lang]) {
			t.Errorf("welcome in %s = %q, want it to name %q", lang, w, steps[lang])
		}
	}
}

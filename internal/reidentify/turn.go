package reidentify

import (
	"github.com/lexflow/lexflow/internal/pseudonym"
	"github.com/lexflow/lexflow/schemas"
)

// Turn is a turn's result as the client reads it: its reply and its escalation's
// question and advice with the parties' placeholders replaced by their values.
func Turn(res schemas.TurnResult, parties []pseudonym.Party) schemas.TurnResult {
	if len(parties) == 0 {
		return res
	}
	res.Reply = Text(res.Reply, parties)
	if e := res.Escalation; e != nil {
		cp := *e
		cp.Question, cp.Advice = Text(cp.Question, parties), Text(cp.Advice, parties)
		res.Escalation = &cp
	}
	return res
}

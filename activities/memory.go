package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"go.temporal.io/sdk/activity"

	"github.com/lexflow/lexflow/internal/prompts"
	"github.com/lexflow/lexflow/internal/reidentify"
	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// MemoryProposals proposes, from a closed case, facts about its client worth
// remembering in their other cases; the client approves or rejects each one.
type MemoryProposals struct {
	// Erasures tells a case whose erasure has begun: it proposes nothing.
	Erasures    store.Erasures
	Cases       store.Cases
	Transcripts store.Transcripts
	Facts       store.MemoryFacts
	Parties     store.Parties
	// Model is the assistant's endpoint, which serves the memory role; nil proposes
	// nothing.
	Model   *llm.Client
	Prompts *SystemPrompts
	// Meter pseudonymizes the call and charges it to the case's budgets.
	Meter *Meter
}

// Bounds of what the memory model reads of a case: its latest client messages, each
// clipped.
const (
	memoryMessages     = 40
	memoryMessageChars = 1000
)

// AskMemoryFacts asks the memory model for facts about the case's client: it reads the
// case's summary and facts and the client's latest messages, pseudonymized (by the
// Meter, with the case's parties), and answers them as the model wrote them, at most
// schemas.MaxProposedFacts, each at most store.MaxFactChars characters (longer ones,
// and empty ones, are dropped; each is written on one line). A case whose erasure has
// begun, a model that refuses, a budget used up or an answer that is not the JSON asked
// for proposes nothing; a transient failure is retried.
func (a *MemoryProposals) AskMemoryFacts(ctx context.Context, in schemas.ProposeMemory) (schemas.ProposedFacts, error) {
	stop := heartbeat(ctx)
	defer stop()
	if a.Model == nil {
		return schemas.ProposedFacts{}, nil
	}
	if erasing, err := a.erasing(ctx, in.CaseID); err != nil || erasing {
		return schemas.ProposedFacts{}, err // a case being erased is sent to no model
	}
	c, err := a.Cases.GetCase(ctx, in.CaseID)
	if errors.Is(err, store.ErrNotFound) {
		return schemas.ProposedFacts{}, permanent(fmt.Errorf("read case %s: %w", in.CaseID, err))
	}
	if err != nil {
		return schemas.ProposedFacts{}, fmt.Errorf("read case %s: %w", in.CaseID, err)
	}
	recs, err := a.Transcripts.ListRecords(ctx, in.CaseID, 0, 0)
	if err != nil {
		return schemas.ProposedFacts{}, fmt.Errorf("read the transcript: %w", err)
	}
	var said []string
	for _, r := range recs {
		if r.Role == schemas.RecordUser && strings.TrimSpace(r.Content) != "" {
			said = append(said, clipRunes(strings.Join(strings.Fields(r.Content), " "), memoryMessageChars))
		}
	}
	said = said[max(len(said)-memoryMessages, 0):]
	system, err := a.Prompts.System(ctx, schemas.ModelMemory, prompts.Context{CaseID: in.CaseID, Language: in.Language})
	if err != nil {
		return schemas.ProposedFacts{}, err
	}
	msgs := []schemas.ChatMessage{{Role: schemas.MsgSystem, Content: system}, {Role: schemas.MsgUser, Content: caseForMemory(c.Details, said)}}
	resp, err := a.Meter.Complete(ctx, a.Model, msgs, nil, nil)
	if err != nil && llm.Retryable(err) && !isBudgetExhausted(err) {
		return schemas.ProposedFacts{}, err
	}
	if err != nil {
		activity.GetLogger(ctx).Warn("No memory facts proposed: the model refused", "CaseID", in.CaseID, "Error", err)
		return schemas.ProposedFacts{}, nil
	}
	var answer struct {
		Facts []string `json:"facts"`
	}
	raw := strings.TrimPrefix(strings.TrimSpace(resp.Content), "```")
	raw = strings.TrimSuffix(strings.TrimPrefix(raw, "json"), "```")
	if err := json.Unmarshal([]byte(strings.TrimSpace(raw)), &answer); err != nil {
		activity.GetLogger(ctx).Warn("No memory facts proposed: the answer is not the JSON asked for", "CaseID", in.CaseID, "Error", err)
		return schemas.ProposedFacts{}, nil
	}
	out := schemas.ProposedFacts{Facts: []string{}}
	for _, f := range answer.Facts {
		f = strings.Join(strings.Fields(f), " ") // one line: a fact cannot open a section of a prompt
		if n := utf8.RuneCountInString(f); n > 0 && n <= store.MaxFactChars && len(out.Facts) < schemas.MaxProposedFacts {
			out.Facts = append(out.Facts, f)
		}
	}
	return out, nil
}

// caseForMemory is the memory role's message: the case's current summary, its facts
// and the client's messages, one a line.
func caseForMemory(details map[string]any, said []string) string {
	var b strings.Builder
	if s, ok := details["summary"].(map[string]any); ok {
		fmt.Fprintf(&b, "Summary: %v\n", s["current"])
	}
	b.WriteString("Facts:\n")
	if facts, ok := details["facts"].([]any); ok {
		for _, f := range facts {
			if s, ok := f.(string); ok {
				b.WriteString("- " + s + "\n")
				continue
			}
			raw, _ := json.Marshal(f)
			b.WriteString("- " + string(raw) + "\n")
		}
	}
	b.WriteString(schemas.MemoryClientHeading + "\n")
	for _, s := range said {
		b.WriteString("- " + s + "\n")
	}
	return b.String()
}

// clipRunes returns s cut to at most n characters.
func clipRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// StoreMemoryFacts stores the proposed facts for the case's owner, each written in
// clear (its placeholders replaced by the case's parties' values, internal/reidentify),
// under an ID made of the case's and the fact's place, so that a retry stores each
// once. A user who has store.MaxMemoryFacts facts gets no more: the rest are dropped.
// A case whose erasure has begun (the erasure closes the case, which starts its
// proposal) stores nothing, and an erasure that begins while it stores has the
// proposals it stored deleted again: the erasure deletes its proposals, and none may
// come after. It answers how many facts it stored anew.
func (a *MemoryProposals) StoreMemoryFacts(ctx context.Context, in schemas.StoreProposedFacts) (schemas.ProposeMemoryResult, error) {
	if erasing, err := a.erasing(ctx, in.CaseID); err != nil || erasing {
		return schemas.ProposeMemoryResult{}, err
	}
	parties, err := partiesOf(ctx, a.Parties, in.CaseID)
	if err != nil {
		return schemas.ProposeMemoryResult{}, err
	}
	owner := store.OwnerID(in.OrgID, in.UserID)
	var res schemas.ProposeMemoryResult
	for i, text := range in.Facts {
		f := store.MemoryFact{ID: fmt.Sprintf("%s-%d", in.CaseID, i+1), Owner: owner, CaseID: in.CaseID,
			Text: clipRunes(reidentify.Text(text, parties), store.MaxFactChars), Status: store.FactProposed}
		added, err := a.Facts.AddMemoryFact(ctx, f)
		if errors.Is(err, store.ErrTooManyFacts) {
			activity.GetLogger(ctx).Info("Memory facts dropped: the user has the most they may", "CaseID", in.CaseID, "Dropped", len(in.Facts)-i)
			break
		}
		if err != nil {
			return res, err
		}
		if added {
			res.Proposed++
		}
	}
	if erasing, err := a.erasing(ctx, in.CaseID); err != nil || !erasing {
		return res, err
	}
	if _, err := a.Facts.EraseCaseProposals(ctx, in.CaseID); err != nil {
		return res, fmt.Errorf("delete the proposals of a case being erased: %w", err)
	}
	return schemas.ProposeMemoryResult{}, nil
}

// erasing reports whether the case's erasure has begun.
func (a *MemoryProposals) erasing(ctx context.Context, caseID string) (bool, error) {
	_, err := a.Erasures.GetErasure(ctx, caseID)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read the case's erasure: %w", err)
	}
	activity.GetLogger(ctx).Info("No memory facts: the case is being erased", "CaseID", caseID)
	return true, nil
}

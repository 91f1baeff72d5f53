package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lexflow/lexflow/llm"
	"github.com/lexflow/lexflow/schemas"
)

// Rewriter asks the assistant model to rewrite a client's question into the legal
// terms of the jurisdictions' languages: the model-rewrite layer of legislation search
// (corpus.Layers.Rewrites). Its call is charged to the case's and the tenant's token
// budgets through the Meter, like every model call.
type Rewriter struct {
	// Model is the assistant's endpoint. Nil, as when only the offline model is
	// configured (which has no rewrite of its own: the glossary is its deterministic
	// equivalent), means no rewrite.
	Model *llm.Client
	Meter *Meter
}

// Bounds of a rewrite: its call's deadline, the size of the answer read, and of each
// language's rewrite kept.
const (
	rewriteTimeout     = 6 * time.Second
	maxRewriteAnswer   = 4096
	maxRewriteLanguage = 400
)

// rewriteInstruction tells the model what to answer: one JSON object, nothing else.
const rewriteInstruction = `You rewrite a client's legal question for a search of statute articles. ` +
	`Answer with one JSON object and nothing else, whose keys are exactly these language codes: %s. ` +
	`Each value is the question rewritten in that language with the legal terms its statutes use ` +
	`(for example "locațiune", "locator", "garanție" for a Romanian lease deposit), at most 40 words. ` +
	`Do not answer the question and cite no article numbers.`

// Rewrite returns the question rewritten per language ("ro", "it", "en"), or nil when
// there is no model, the budget is used up, the model refuses, or its answer is not
// what was asked (too long, not a JSON object of the languages' strings): a rewrite
// fails closed, and search goes on without it. A transient failure is an error, for
// the activity's retry policy.
func (r *Rewriter) Rewrite(ctx context.Context, question string, langs []string) (map[string]string, error) {
	if r == nil || r.Model == nil || strings.TrimSpace(question) == "" || len(langs) == 0 {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, rewriteTimeout)
	defer cancel()
	msgs := []schemas.ChatMessage{
		{Role: schemas.MsgSystem, Content: fmt.Sprintf(rewriteInstruction, strings.Join(langs, ", "))},
		{Role: schemas.MsgUser, Content: question},
	}
	resp, err := r.Meter.Complete(ctx, r.Model, msgs, nil, nil)
	if err != nil {
		if llm.Retryable(err) && !isBudgetExhausted(err) {
			return nil, fmt.Errorf("rewrite question: %w", err)
		}
		return nil, nil
	}
	return parseRewrite(resp.Content, langs), nil
}

// parseRewrite reads the model's answer: a JSON object (in a code fence or not) whose
// keys are among langs and whose values are strings of at most maxRewriteLanguage
// bytes. Anything else is nil.
func parseRewrite(answer string, langs []string) map[string]string {
	if len(answer) > maxRewriteAnswer {
		return nil
	}
	answer = strings.TrimSpace(answer)
	answer = strings.TrimPrefix(answer, "```json")
	answer = strings.TrimSuffix(strings.TrimPrefix(answer, "```"), "```")
	var got map[string]string
	if err := json.Unmarshal([]byte(strings.TrimSpace(answer)), &got); err != nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range got {
		v = strings.TrimSpace(v)
		if !slices.Contains(langs, k) || len(v) > maxRewriteLanguage {
			return nil
		}
		if v != "" {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

package activities

import (
	"context"
	"errors"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/corpus"
	"github.com/lexflow/lexflow/internal/bm25"
	"github.com/lexflow/lexflow/internal/pseudonym"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Bounds of one rag_search: the characters of document text it reads (the documents
// in the order they were uploaded, those past the bound counted as skipped), and the
// latest transcript records it reads.
const (
	ragMaxChars   = 4 << 20
	ragMaxRecords = 500
)

// RagSearch is the rag_search tool: the passages of the case's own documents (those
// read) and of its transcript's messages that best match the query, ranked by BM25
// over their terms analysed in the case's language (corpus.Analyze), at most the
// limit, each at most schemas.RagPassageChars characters. Documents are pseudonymized
// one by one as read_document shows them, so a passage's placeholders and markers are
// those of its page there; the messages together, with the same parties. A turn not yet
// answered (the turn under way) is left out: the model has its message already. Global
// is refused, and the case is the one the turn binds: nothing of another case is read.
func (a *Documents) RagSearch(ctx context.Context, args schemas.RagSearchArgs) (schemas.RagSearchResult, error) {
	refuse := func(msg string) (schemas.RagSearchResult, error) {
		return schemas.RagSearchResult{Status: schemas.ResultError, ErrorMessage: msg, Passages: []schemas.RagPassage{}}, nil
	}
	if args.Global {
		return refuse(schemas.RagGlobalRefused)
	}
	limit := args.Limit
	if limit == 0 {
		limit = schemas.DefaultRagResults
	}
	limit = min(max(limit, 1), schemas.MaxRagResults)
	c, err := a.Cases.GetCase(ctx, args.CaseID)
	if errors.Is(err, store.ErrNotFound) {
		return refuse(schemas.CaseNotFound)
	}
	if err != nil {
		return schemas.RagSearchResult{}, err
	}
	query := corpus.Analyze(c.Language, args.Query)
	if len(query) == 0 {
		return refuse("the query has no word to search for; use the words the documents or the client would use")
	}
	defer heartbeat(ctx)()
	out := schemas.RagSearchResult{Status: schemas.ResultSuccess, Query: args.Query, Passages: []schemas.RagPassage{}}
	passages, err := a.documentPassages(ctx, c, &out)
	if err != nil {
		return schemas.RagSearchResult{}, err
	}
	msgs, err := a.messagePassages(ctx, c.ID, &out)
	if err != nil {
		return schemas.RagSearchResult{}, err
	}
	passages = append(passages, msgs...)
	terms := make([][]string, len(passages))
	for i, p := range passages {
		if err := ctx.Err(); err != nil {
			return schemas.RagSearchResult{}, err
		}
		terms[i] = corpus.Analyze(c.Language, p.Text)
	}
	out.Searched = len(passages)
	for _, h := range bm25.Rank(query, terms, limit) {
		p := passages[h.Index]
		p.Score = math.Round(h.Score*1000) / 1000
		out.Passages = append(out.Passages, p)
	}
	return out, nil
}

// documentPassages cuts the case's read documents into passages, pseudonymized, and
// counts them in out. A document deleted while the search ran is left out.
func (a *Documents) documentPassages(ctx context.Context, c store.Case, out *schemas.RagSearchResult) ([]schemas.RagPassage, error) {
	var passages []schemas.RagPassage
	read := 0
	for _, d := range schemas.RecordedDocuments(c.Details) {
		if d.Status != schemas.DocRead {
			continue
		}
		if read >= ragMaxChars {
			out.Skipped++
			continue
		}
		pages, _, err := a.pseudonymized(ctx, c.ID, d.ID, math.MaxInt, ragMaxChars-read)
		var appErr *temporal.ApplicationError
		if errors.As(err, &appErr) && appErr.Type() == schemas.ErrInvalidArgs {
			continue // deleted meanwhile (errDocumentGone)
		}
		if err != nil {
			return nil, err
		}
		out.Documents++
		out.Pages += len(pages)
		for i, page := range pages {
			if err := ctx.Err(); err != nil { // a timed-out attempt stops cutting
				return nil, err
			}
			read += utf8.RuneCountInString(page)
			for _, text := range passagesOf(page, schemas.RagPassageChars) {
				passages = append(passages, schemas.RagPassage{Source: schemas.RagSourceDocument, DocumentID: d.ID, Title: d.Title, Page: i + 1, Text: text})
			}
		}
	}
	return passages, nil
}

// messagePassages cuts the user's and the assistant's messages of the case's answered
// turns (the latest ragMaxRecords records) into passages, pseudonymized together, and
// counts them in out.
func (a *Documents) messagePassages(ctx context.Context, caseID string, out *schemas.RagSearchResult) ([]schemas.RagPassage, error) {
	recs, err := a.Transcripts.ListRecords(ctx, caseID, 0, ragMaxRecords)
	if err != nil {
		return nil, err
	}
	answered := map[int]bool{}
	for _, r := range recs {
		if r.Role == schemas.RecordAssistant {
			answered[r.TurnNo] = true
		}
	}
	var kept []store.Record
	var texts []string
	for _, r := range recs {
		if (r.Role == schemas.RecordUser || r.Role == schemas.RecordAssistant) && answered[r.TurnNo] && strings.TrimSpace(r.Content) != "" {
			kept, texts = append(kept, r), append(texts, r.Content)
		}
	}
	parties, err := partiesOf(ctx, a.Parties, caseID)
	if err != nil {
		return nil, err
	}
	texts, err = pseudonym.For(parties).Pages(ctx, texts)
	if err != nil {
		return nil, err
	}
	out.Messages = len(texts)
	var passages []schemas.RagPassage
	for i, text := range texts {
		for _, part := range passagesOf(text, schemas.RagPassageChars) {
			passages = append(passages, schemas.RagPassage{Source: schemas.RagSourceTranscript, Turn: kept[i].TurnNo, Role: string(kept[i].Role), Text: part})
		}
	}
	return passages, nil
}

// passagesOf cuts a text into passages of at most n characters: its paragraphs
// (split at blank lines) joined while they fit, a longer paragraph cut between words
// (or, for a word longer than n, inside it).
func passagesOf(text string, n int) []string {
	var out []string
	cur := ""
	flush := func() {
		if strings.TrimSpace(cur) != "" {
			out = append(out, strings.TrimSpace(cur))
		}
		cur = ""
	}
	for _, para := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		para = strings.TrimSpace(para)
		if para == "" {
			continue
		}
		switch {
		case utf8.RuneCountInString(cur)+2+utf8.RuneCountInString(para) <= n:
			if cur != "" {
				cur += "\n\n"
			}
			cur += para
		case utf8.RuneCountInString(para) <= n:
			flush()
			cur = para
		default:
			flush()
			out = append(out, cutWords(para, n)...)
		}
	}
	flush()
	return out
}

// cutWords cuts a paragraph longer than n characters into pieces of at most n, between
// words where it can.
func cutWords(para string, n int) []string {
	var out []string
	r := []rune(para)
	for len(r) > n {
		cut := n
		for i := n; i > n/2; i-- {
			if r[i] == ' ' || r[i] == '\n' {
				cut = i
				break
			}
		}
		out = append(out, strings.TrimSpace(string(r[:cut])))
		r = r[cut:] // a slice, not a copy: a long paragraph is cut in linear time
		for len(r) > 0 && unicode.IsSpace(r[0]) {
			r = r[1:]
		}
	}
	if rest := strings.TrimSpace(string(r)); rest != "" {
		out = append(out, rest)
	}
	return out
}

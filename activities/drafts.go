package activities

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/internal/blob"
	"github.com/lexflow/lexflow/internal/draft"
	"github.com/lexflow/lexflow/internal/language"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// Drafts are the activities of generate_draft_pdf. RenderDraft is the one place besides
// the parties API that reads the parties' data: it fills the placeholders in memory and
// writes the result only into the PDF.
type Drafts struct {
	Cases   store.Cases
	Parties store.Parties
	Blobs   blob.Store
	// Disclosures are the organizations' settings of the AI disclosure each draft
	// carries (see disclosureOf).
	Disclosures store.Disclosures
	// Now stamps new revisions; time.Now when nil.
	Now func() time.Time
	// Events publishes draft.ready.
	Events *Publisher
}

// draftNameRe is what a draft's name may be: it names a folder and a case_details key.
var draftNameRe = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{0,59}$`)

// partyFields are the placeholder fields a party has ({{party0.lastName}}).
var partyFields = map[string]func(store.Party) string{
	"firstName":   func(p store.Party) string { return p.FirstName },
	"lastName":    func(p store.Party) string { return p.LastName },
	"fullName":    func(p store.Party) string { return strings.TrimSpace(p.FirstName + " " + p.LastName) },
	"companyName": func(p store.Party) string { return p.CompanyName },
	"name": func(p store.Party) string {
		if p.CompanyName != "" {
			return p.CompanyName
		}
		return strings.TrimSpace(p.FirstName + " " + p.LastName)
	},
	"cnp":     func(p store.Party) string { return p.CNP },
	"cui":     func(p store.Party) string { return p.CUI },
	"address": func(p store.Party) string { return p.Address },
	"email":   func(p store.Party) string { return p.Email },
}

// RenderDraft checks that every placeholder names a field of a party attached to the
// case, fills them in, renders the PDF, with the AI disclosure of the case's language
// in every page's footer where it is on (disclosureOf), and stores it at
// schemas.DraftPath. It is idempotent per
// (case, name, revision): the same content gives the same PDF, stored once; other
// content under a stored revision is refused, naming the next free revision. Faults of
// the draft, and a case under a legal hold, are answers for the model; store and blob
// errors are retried, and name the step that failed (schemas.FailedSteps).
func (a *Drafts) RenderDraft(ctx context.Context, in schemas.RenderDraftInput) (schemas.RenderDraftResult, error) {
	args := in.GenerateDraftPDFArgs
	refuse := func(format string, v ...any) (schemas.RenderDraftResult, error) {
		return schemas.RenderDraftResult{ErrorMessage: fmt.Sprintf(format, v...)}, nil
	}
	if !draftNameRe.MatchString(args.DraftName) {
		return refuse("Invalid draft_name %q: use up to 60 letters, digits and underscores, starting with a letter", args.DraftName)
	}
	if args.Revision < 1 {
		return refuse("Invalid revision %d: revisions start at 1", args.Revision)
	}
	if refusal, err := heldRefusal(ctx, a.Cases, args.CaseID); err != nil || refusal != "" {
		return schemas.RenderDraftResult{ErrorMessage: refusal}, err
	}
	parties, err := a.Parties.ListParties(ctx, args.CaseID)
	if err != nil {
		return schemas.RenderDraftResult{}, failed(schemas.FailedStoreRead, err)
	}
	byID := map[string]store.Party{}
	for _, p := range parties {
		byID[p.ID] = p
	}
	if bad := draft.Malformed(args.MarkdownContent); len(bad) > 0 {
		return refuse("Placeholder substitution failed: %s is not a placeholder (write {{partyN.field}}, fields %s)",
			strings.Join(bad, ", "), strings.Join(fieldNames(), ", "))
	}
	for _, ref := range draft.Placeholders(args.MarkdownContent) {
		p, ok := byID[ref.Party]
		if !ok {
			return refuse("%s", draft.MissingPartyMessage(ref.Party))
		}
		field, ok := partyFields[ref.Field]
		if !ok {
			return refuse("Placeholder substitution failed: %s is not a party field (use %s)", ref.Field, strings.Join(fieldNames(), ", "))
		}
		if field(p) == "" {
			return refuse("Placeholder substitution failed: Party ID %s has no %s", ref.Party, ref.Field)
		}
	}
	disclosed, err := a.disclosureOf(ctx, args.CaseID)
	if err != nil {
		return schemas.RenderDraftResult{}, failed(schemas.FailedStoreRead, err)
	}
	filled := draft.Substitute(args.MarkdownContent, func(r draft.Ref) string { return partyFields[r.Field](byID[r.Party]) })
	pdf, err := draft.Render(filled, draft.Options{Title: strings.ReplaceAll(args.DraftName, "_", " "),
		Appendix: citationsToCheckPage(in.Citations, language.Guess(args.MarkdownContent)), Disclosure: disclosed})
	if err != nil {
		return refuse("%v", err)
	}
	sum, content := sha256.Sum256(pdf), sha256.Sum256([]byte(filled))
	d := schemas.RenderedDraft{
		DraftID: schemas.DraftID(args.DraftName, args.Revision), DraftName: args.DraftName, Revision: args.Revision,
		Path: schemas.DraftPath(args.CaseID, args.DraftName, args.Revision), SHA256: hex.EncodeToString(sum[:]), Size: int64(len(pdf)),
		ContentSHA256: hex.EncodeToString(content[:]), Citations: in.Citations,
	}
	recorded, err := listDrafts(ctx, a.Cases, args.CaseID)
	if err != nil {
		return schemas.RenderDraftResult{}, failed(schemas.FailedStoreRead, err)
	}
	next, same := 1, -1
	for i, r := range recorded {
		if r.DraftName == d.DraftName && r.Revision >= next {
			next = r.Revision + 1
		}
		if r.DraftID == d.DraftID {
			same = i
		}
	}
	if same >= 0 {
		// The same text is the same revision, whatever its citation page says today
		// (the corpus may have changed); revisions recorded before drafts were checked
		// have only their PDF's digest.
		r := recorded[same]
		if (r.ContentSHA256 != "" && r.ContentSHA256 != d.ContentSHA256) || (r.ContentSHA256 == "" && r.SHA256 != d.SHA256) {
			return refuse("Revision %d of %s exists with other content; use revision %d", args.Revision, args.DraftName, next)
		}
		return schemas.RenderDraftResult{Draft: r}, nil
	}
	// A revision stored by a render whose recording never ran keeps its PDF.
	if stored, err := a.read(ctx, d.Path); err != nil {
		return schemas.RenderDraftResult{}, failed(schemas.FailedDraftRead, err)
	} else if stored != nil && !bytes.Equal(stored, pdf) {
		return refuse("Revision %d of %s exists with other content; use revision %d", args.Revision, args.DraftName, next)
	}
	if err := a.Blobs.Put(ctx, d.Path, pdf); errors.Is(err, blob.ErrBadKey) {
		return schemas.RenderDraftResult{}, temporal.NewNonRetryableApplicationError(err.Error(), schemas.ErrInvalidArgs, err)
	} else if err != nil {
		return schemas.RenderDraftResult{}, failed(schemas.FailedDraftUpload, fmt.Errorf("store the PDF: %w", err))
	}
	d.CreatedAt = a.now()
	return schemas.RenderDraftResult{Draft: d}, nil
}

// read returns the blob under key, or nil if there is none.
func (a *Drafts) read(ctx context.Context, key string) ([]byte, error) {
	data, err := readBlob(ctx, a.Blobs, key)
	if errors.Is(err, blob.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// RecordDraft records a stored revision in case_details.draft_status, unless it is
// recorded already, and publishes draft.ready.
func (a *Drafts) RecordDraft(ctx context.Context, in schemas.RecordDraft) error {
	recorded, err := listDrafts(ctx, a.Cases, in.CaseID)
	if err != nil {
		return failed(schemas.FailedStoreRead, err)
	}
	d := in.Draft
	if !slices.ContainsFunc(recorded, func(r schemas.RenderedDraft) bool { return r.DraftID == d.DraftID }) {
		entry := map[string]any{"draft_name": d.DraftName, "revision": d.Revision, "path": d.Path, "sha256": d.SHA256,
			"content_sha256": d.ContentSHA256, "size": d.Size, "created_at": d.CreatedAt, "status": "generated"}
		if len(d.Citations) > 0 {
			cits := make([]any, len(d.Citations))
			for i, c := range d.Citations {
				cits[i] = schemas.RecordedCitation(c)
			}
			entry["citations"] = cits
		}
		_, err = a.Cases.UpdateDetails(ctx, in.CaseID, 0, "", map[string]any{"draft_status." + d.DraftID: entry})
		if err != nil {
			return permanent(failed(schemas.FailedStoreUpdate, fmt.Errorf("record the draft in case_details: %w", err)))
		}
	}
	return a.Events.Publish(ctx, schemas.EventDraftReady, schemas.EventDraftReady, "", schemas.DraftReadyEvent{
		DraftName: d.DraftName, Revision: d.Revision, SHA256: d.SHA256, Size: d.Size,
		Download:         fmt.Sprintf("/v1/cases/%s/drafts/%s/%d", in.CaseID, d.DraftName, d.Revision),
		CitationsToCheck: d.CitationsToCheck()})
}

// listDrafts reads a case and returns its recorded draft revisions (see
// schemas.RecordedDrafts).
func listDrafts(ctx context.Context, cases store.Cases, caseID string) ([]schemas.RenderedDraft, error) {
	c, err := cases.GetCase(ctx, caseID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return schemas.RecordedDrafts(c.Details), nil
}

// fieldNames lists the placeholder fields, sorted.
func fieldNames() []string {
	names := make([]string, 0, len(partyFields))
	for n := range partyFields {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// now stamps a new revision.
func (a *Drafts) now() time.Time {
	if a.Now != nil {
		return a.Now().UTC()
	}
	return time.Now().UTC()
}

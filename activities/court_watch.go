package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/internal/portal"
	"github.com/lexflow/lexflow/internal/pseudonym"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// CourtWatchPage is how many links one WatchedCourtFiles call returns.
const CourtWatchPage = 50

// CourtWatch are the court watch's activities: the links to poll, and one poll of a
// file on the courts' portal, which records what is new as case events.
type CourtWatch struct {
	Files   store.CourtFiles
	Cases   store.Cases
	Parties store.Parties
	Events  store.Events
	// Portal is the portal's client; nil when LEXFLOW_PORTAL_URL is unset, and the
	// watch then polls nothing.
	Portal *portal.Client
	// Now is the clock that tells a hearing to come from a past one; nil means
	// time.Now.
	Now func() time.Time
}

// WatchedCourtFiles returns the links after the one named after, CourtWatchPage at
// most; none when no portal is configured.
func (a *CourtWatch) WatchedCourtFiles(ctx context.Context, after string) (schemas.CourtFilePage, error) {
	if a.Portal == nil {
		return schemas.CourtFilePage{}, nil
	}
	fs, err := a.Files.WatchedCourtFiles(ctx, after, CourtWatchPage+1)
	if err != nil {
		return schemas.CourtFilePage{}, fmt.Errorf("list court files: %w", err)
	}
	page := schemas.CourtFilePage{More: len(fs) > CourtWatchPage}
	for _, f := range fs[:min(len(fs), CourtWatchPage)] {
		page.Files = append(page.Files, schemas.CourtFileRef{ID: f.ID, CaseID: f.CaseID})
	}
	return page, nil
}

// PollCourtFile reads a linked file from the portal and tells its case what is new
// since the last poll: each new hearing, each hearing's new result and each solution
// becomes a case event (schemas.EventCourtHearing, its texts pseudonymized), then the
// hearings seen are recorded. An event's ID names the file, the hearing and what was
// new, so a retry (or a poll that failed after the events) appends none twice. It
// answers the news with the notification and the deadline each proposes. A link
// gone, or a file the portal no longer knows, is no news; a request the portal
// refuses is not retried.
func (a *CourtWatch) PollCourtFile(ctx context.Context, ref schemas.CourtFileRef) (schemas.CourtNews, error) {
	if a.Portal == nil {
		return schemas.CourtNews{}, nil
	}
	files, err := a.Files.ListCourtFiles(ctx, ref.CaseID)
	if err != nil {
		return schemas.CourtNews{}, fmt.Errorf("read court files: %w", err)
	}
	i := slices.IndexFunc(files, func(f store.CourtFile) bool { return f.ID == ref.ID })
	if i < 0 {
		return schemas.CourtNews{}, nil
	}
	link := files[i]
	c, err := a.Cases.GetCase(ctx, ref.CaseID)
	if errors.Is(err, store.ErrNotFound) {
		return schemas.CourtNews{}, nil
	}
	if err != nil {
		return schemas.CourtNews{}, fmt.Errorf("read case: %w", err)
	}
	file, found, err := a.Portal.File(ctx, link.Number, link.Court)
	var fault *portal.Fault
	if errors.As(err, &fault) && fault.Sender() {
		return schemas.CourtNews{}, temporal.NewNonRetryableApplicationError(err.Error(), schemas.ErrInvalidArgs, err)
	}
	if err != nil {
		return schemas.CourtNews{}, err
	}
	if !found {
		return schemas.CourtNews{}, nil
	}
	hearings := hearingsOf(file)
	news := a.newsOf(link, c, file, hearings)
	if len(news) > 0 {
		if err := a.appendNews(ctx, link, c, file, news); err != nil {
			return schemas.CourtNews{}, err
		}
	}
	if err := a.Files.RecordCourtHearings(ctx, link.CaseID, link.ID, hearings, file.StadiuProcesualNume, a.now()); err != nil && !errors.Is(err, store.ErrNotFound) {
		return schemas.CourtNews{}, fmt.Errorf("record hearings: %w", err)
	}
	out := schemas.CourtNews{}
	for _, n := range news {
		out.Items = append(out.Items, n.item)
	}
	return out, nil
}

// now is the activity's clock.
func (a *CourtWatch) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}

// hearingsOf are a file's hearings as the store keeps them, latest first.
func hearingsOf(f portal.Dosar) []store.CourtHearing {
	out := make([]store.CourtHearing, 0, len(f.Sedinte))
	for _, h := range f.Sedinte {
		out = append(out, store.CourtHearing{Date: h.Data.Time, Hour: strings.TrimSpace(h.Ora), Panel: strings.TrimSpace(h.Complet),
			Result: strings.TrimSpace(h.Solutie), Summary: strings.TrimSpace(h.SolutieSumar), PronouncedAt: h.DataPronuntare.Time,
			Document: solutionDocument(h)})
	}
	slices.SortStableFunc(out, func(a, b store.CourtHearing) int { return b.Date.Compare(a.Date) })
	return out[:min(len(out), store.MaxCourtHearings)]
}

// decisions are the documentSedinta values (lower-cased prefixes) of a decision that
// decides the stage: hotărâre, sentință, decizie.
var decisions = []string{"hotarare", "sentinta", "decizie"}

// solutionDocument is a hearing's decision's number when the hearing gave one that
// decides the stage ("" otherwise): a hearing's documentSedinta names the decision's
// kind, numarDocument its number.
func solutionDocument(h portal.DosarSedinta) string {
	doc, number := strings.ToLower(h.DocumentSedinta), strings.TrimSpace(h.NumarDocument)
	if number == "" || !slices.ContainsFunc(decisions, func(p string) bool { return strings.HasPrefix(doc, p) }) {
		return ""
	}
	return number
}

// courtNews is one piece of news and the hearing it is about.
type courtNews struct {
	key     string
	hearing store.CourtHearing
	item    schemas.CourtNewsItem
}

// newsOf compares the hearings the portal lists with those seen: a hearing not seen is
// a new hearing (or, already with its result, that result); a seen one whose result
// appeared or changed is a result, or a solution when it decides the stage.
func (a *CourtWatch) newsOf(link store.CourtFile, c store.Case, file portal.Dosar, hearings []store.CourtHearing) []courtNews {
	seen := map[string]store.CourtHearing{}
	for _, h := range link.Hearings {
		seen[h.Key()] = h
	}
	var out []courtNews
	for _, h := range hearings {
		before, known := seen[h.Key()]
		kind := ""
		switch {
		case known && before.Result == h.Result && before.Summary == h.Summary && before.Document == h.Document:
			continue
		case h.Document != "":
			kind = schemas.CourtSolution
		case h.Result != "" || h.Summary != "":
			kind = schemas.CourtResult
		case !known:
			kind = schemas.CourtNewHearing
		default:
			continue // a result withdrawn: nothing to tell
		}
		key := courtNewsKey(link.ID, kind, h)
		out = append(out, courtNews{key: key, hearing: h, item: a.itemOf(link, c, file, h, kind, key, !known)})
	}
	return out
}

// day is a time's day in the courts' zone, YYYY-MM-DD.
func day(t time.Time) string { return t.In(portal.Zone).Format(time.DateOnly) }

// itemOf is a piece of news: its notification to the case's owner and the deadline it
// proposes (see proposalOf).
func (a *CourtWatch) itemOf(link store.CourtFile, c store.Case, file portal.Dosar, h store.CourtHearing, kind, key string, fresh bool) schemas.CourtNewsItem {
	owner := store.OwnerID(c.OrgID, c.UserID)
	item := schemas.CourtNewsItem{Kind: kind, Day: day(h.Date), Propose: a.proposalOf(link, c, file, h, kind, key, fresh)}
	item.Notify = schemas.Notification{Key: "court:" + key + ":" + owner, Kind: schemas.NotifyCourtHearing, TenantID: c.OrgID, Owner: owner,
		CaseID: c.ID, Due: h.Date, Language: c.Language,
		Params: map[string]string{schemas.ParamNews: kind, schemas.ParamFile: link.Number, schemas.ParamCourt: link.Court, schemas.ParamDay: day(h.Date), schemas.ParamHour: h.Hour}}
	return item
}

// courtNewsKey names a piece of news: the file, what is new and the hearing, and for a
// result its text, so that a result that changes is news again.
func courtNewsKey(fileID, kind string, h store.CourtHearing) string {
	k := fileID + ":" + kind + ":" + h.Key()
	if kind != schemas.CourtNewHearing {
		k += ":" + uuid.NewSHA1(uuid.NameSpaceOID, []byte(h.Result+"\x00"+h.Summary+"\x00"+h.Document)).String()[:8]
	}
	return k
}

// appealDays is the term of appeal (apel, art. 468 C.proc.civ.) and of recourse
// (recurs, art. 485) against a civil decision: 30 days from its communication.
const appealDays = 30

// proposalOf is the deadline a piece of news proposes, or nil:
//   - a hearing not seen before (fresh) and still to come proposes its day (a
//     hearing's term, "termen");
//   - a solution of a civil file at first instance (Fond) proposes the appeal's last
//     day, in appeal (Apel) the recourse's: 30 days counted by the codes' rules
//     (internal/deadline) from the day the decision was pronounced. The term runs
//     from the decision's communication, which the portal does not publish; counted
//     from the pronouncement it ends at the earliest the real one can, and the person
//     who confirms the proposal sets the day of communication.
//
// Criminal files (other terms) propose nothing, nor do past hearings.
func (a *CourtWatch) proposalOf(link store.CourtFile, c store.Case, file portal.Dosar, h store.CourtHearing, kind, key string, fresh bool) *schemas.ProposeDeadline {
	id := uuid.NewSHA1(uuid.NameSpaceOID, []byte("court-deadline:"+c.ID+":"+key)).String()
	src := schemas.DeadlineSource{Kind: schemas.SourceHearing, Reference: link.Number + " " + link.Court, Date: day(h.Date)}
	switch {
	case kind != schemas.CourtSolution && fresh && day(h.Date) >= day(a.now()):
		return &schemas.ProposeDeadline{DeadlineID: id, ProposedBy: schemas.ProposedByCourt, Args: schemas.ProposeDeadlineArgs{
			CaseID: c.ID, Title: "Termen de judecată, dosar " + link.Number, Source: src, Due: day(h.Date), Jurisdiction: "ro"}}
	case kind != schemas.CourtSolution || file.CategorieCaz == "Penal":
		return nil
	}
	way := map[string]string{"Fond": "Apel", "Apel": "Recurs"}[file.StadiuProcesualNume]
	if way == "" {
		return nil
	}
	from := h.PronouncedAt
	if from.IsZero() {
		from = h.Date
	}
	src.Kind, src.Reference = schemas.SourceCourtOrder, h.Document+" "+link.Court
	return &schemas.ProposeDeadline{DeadlineID: id, ProposedBy: schemas.ProposedByCourt, Args: schemas.ProposeDeadlineArgs{
		CaseID: c.ID, Title: way + ", dosar " + link.Number + " (din ziua pronunțării; confirmați ziua comunicării)", Source: src,
		Computation: &schemas.ComputeDeadlineArgs{Jurisdiction: "ro", From: day(from), Amount: appealDays, Unit: "days", Code: "cpc"}}}
}

// appendNews appends each piece of news to the case's event log, its texts
// pseudonymized with the case's parties and the parties the portal names.
func (a *CourtWatch) appendNews(ctx context.Context, link store.CourtFile, c store.Case, file portal.Dosar, news []courtNews) error {
	parties, err := partiesOf(ctx, a.Parties, c.ID)
	if err != nil {
		return err
	}
	for i, p := range file.Parti {
		parties = append(parties, pseudonym.Party{ID: fmt.Sprintf("court%d", i), CompanyName: p.Nume})
	}
	texts := make([]string, 0, 2*len(news))
	for _, n := range news {
		texts = append(texts, n.hearing.Result, n.hearing.Summary)
	}
	if texts, err = pseudonym.Pages(ctx, texts, parties); err != nil {
		return fmt.Errorf("pseudonymize: %w", err)
	}
	events := make([]store.Event, len(news))
	for i, n := range news {
		body := schemas.CourtEvent{FileID: link.ID, Number: link.Number, Court: link.Court, Kind: n.item.Kind, Day: n.item.Day,
			Hour: n.hearing.Hour, Panel: n.hearing.Panel, Result: texts[2*i], Summary: clip(texts[2*i+1], schemas.EventSummaryChars),
			Document: n.hearing.Document}
		if p := n.item.Propose; p != nil {
			body.Proposed = p.DeadlineID
		}
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		events[i] = store.Event{ID: "court/" + n.key, Type: schemas.EventCourtHearing, At: a.now().UTC(), Body: raw}
	}
	if _, err := a.Events.AppendEvents(ctx, c.ID, events...); err != nil {
		return fmt.Errorf("append court events: %w", err)
	}
	return nil
}

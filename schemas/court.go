package schemas

// The court watch: a Temporal schedule that starts the CourtWatch workflow, which
// polls the courts' portal for every linked court file and tells each case what is
// new in its files.
const (
	// CourtWatchWorkflow is the workflow's registered name.
	CourtWatchWorkflow = "CourtWatch"
	// CourtWatchScheduleID is the schedule's ID, and the workflow's ID as the
	// schedule starts it (the schedule appends the start time).
	CourtWatchScheduleID = "court-watch"
	// EventCourtHearing is the case event of a court file's news: a new hearing, a
	// hearing's result, or a solution.
	EventCourtHearing = "court.hearing"
)

// Kinds of a court file's news.
const (
	// CourtNewHearing is a hearing the watch had not seen: a date set.
	CourtNewHearing = "hearing"
	// CourtResult is a hearing's result (solutie, solutieSumar) that was not there.
	CourtResult = "result"
	// CourtSolution is a result that decides the stage: a decision (hotărâre,
	// sentință, decizie) with its number.
	CourtSolution = "solution"
)

// CourtWatchInput is where a CourtWatch run starts among the links, ordered by ID:
// after After ("" from the first). A run that has more to poll continues as new from
// the last link it polled, with what it did so far in Done.
type CourtWatchInput struct {
	After string           `json:"after,omitempty"`
	Done  CourtWatchResult `json:"done,omitzero"`
}

// CourtWatchResult counts what a CourtWatch run did, over its continued runs.
type CourtWatchResult struct {
	Files  int `json:"files"`
	News   int `json:"news"`
	Failed int `json:"failed"`
}

// CourtFileRef names a case's link to a court file.
type CourtFileRef struct {
	ID     string `json:"id"`
	CaseID string `json:"case_id"`
}

// CourtFilePage is a page of links; More says whether links follow it.
type CourtFilePage struct {
	Files []CourtFileRef `json:"files"`
	More  bool           `json:"more,omitempty"`
}

// CourtNews is what one poll of a file found that the watch had not told.
type CourtNews struct {
	Items []CourtNewsItem `json:"items,omitempty"`
}

// CourtNewsItem is one piece of news, without a party's name: what and when, the
// notification that tells it to the case's owner, and the deadline it proposes, if
// any.
type CourtNewsItem struct {
	Kind string `json:"kind"`
	// Day is the hearing's day, YYYY-MM-DD in the courts' zone.
	Day     string           `json:"day"`
	Notify  Notification     `json:"notify"`
	Propose *ProposeDeadline `json:"propose,omitempty"`
}

// CourtEvent is the body of an EventCourtHearing event. Result and Summary are the
// portal's texts pseudonymized (the parties' names become placeholders).
type CourtEvent struct {
	FileID string `json:"file_id"`
	Number string `json:"numar_dosar"`
	Court  string `json:"institutie"`
	Kind   string `json:"kind"`
	Day    string `json:"day"`
	Hour   string `json:"hour,omitempty"`
	Panel  string `json:"panel,omitempty"`
	Result string `json:"result,omitempty"`
	// Summary is at most EventSummaryChars characters of the operative text.
	Summary  string `json:"summary,omitempty"`
	Document string `json:"document,omitempty"`
	// Proposed is the ID of the deadline the news proposes, if any.
	Proposed string `json:"proposed_deadline,omitempty"`
}

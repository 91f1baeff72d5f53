package schemas

import "time"

// The workflow that refreshes the current texts of Romanian acts, and its schedule.
const (
	RefreshLawWorkflow   = "RefreshLaw"
	RefreshLawScheduleID = "refresh-law"
)

// RefreshAct asks for an act's current text, by its corpus id ("ro/legea-287-2009").
type RefreshAct struct {
	ActID string `json:"act_id"`
}

// RefreshedAct says how many articles of an act were stored, read when.
type RefreshedAct struct {
	ActID    string    `json:"act_id"`
	Articles int       `json:"articles"`
	ReadAt   time.Time `json:"read_at"`
}

// RefreshLawResult is what one run of RefreshLaw did: the acts refreshed and the
// acts it could not read.
type RefreshLawResult struct {
	Refreshed []RefreshedAct `json:"refreshed"`
	Failed    []string       `json:"failed"`
}

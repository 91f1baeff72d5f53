package schemas

// Tiers a case can be classified in.
const (
	MinTier = 1
	MaxTier = 3
)

// TieringInput starts a Tiering child workflow.
type TieringInput struct {
	CaseID   string `json:"case_id"`
	Language string `json:"language"`
	// Description is everything the client has said about the case so far: the case's
	// description and the answer to a clarifying question, if one was asked.
	Description string `json:"description"`
	// MustDecide is set once the one clarifying question has been asked.
	MustDecide bool `json:"must_decide"`
}

// TieringResult is a tier with its justification, or one clarifying question, or,
// when the model-token budget ran out first, Budget, or Review.
type TieringResult struct {
	Tier          int              `json:"tier,omitempty"`
	Justification string           `json:"justification,omitempty"`
	Question      string           `json:"question,omitempty"`
	Budget        *BudgetExhausted `json:"budget,omitempty"`
	// Review says why support must review the tier: the model gave none it could read
	// when one had to be decided. The case is then paused for support.
	Review string `json:"review,omitempty"`
}

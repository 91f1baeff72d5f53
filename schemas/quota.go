package schemas

// QuotaInput starts a Quota child workflow.
type QuotaInput struct {
	CaseID string `json:"case_id"`
	UserID string `json:"user_id"`
	OrgID  string `json:"org_id,omitempty"`
	Tier   int    `json:"tier"`
}

// QuotaResult says whether a subscription covers the case; when it does, one credit of
// the case's tier has been used for it.
type QuotaResult struct {
	HasQuota bool `json:"has_quota"`
	// Reason is check_quota's error message when the check itself failed
	// ("Subscription not found"); such a case must be paid for.
	Reason string `json:"reason,omitempty"`
}

// CheckQuotaResult is check_quota's return shape (seed 003): {"status": "success",
// "has_quota": bool} or {"status": "error", "error_message": "..."}.
type CheckQuotaResult struct {
	Status       string `json:"status"`
	HasQuota     *bool  `json:"has_quota,omitempty"`
	ErrorMessage string `json:"error_message,omitempty"`
}

// check_quota's error texts (seed 003).
const (
	QuotaUserNotFound         = "User not found"
	QuotaSubscriptionNotFound = "Subscription not found"
	QuotaInvalidTier          = "Invalid tier"
)

// UseCredit asks for one credit of a tier to be used for a case.
type UseCredit struct {
	CaseID string `json:"case_id"`
	UserID string `json:"user_id"`
	OrgID  string `json:"org_id,omitempty"`
	Tier   int    `json:"tier"`
}

package schemas

// The allowance before payment: what Lexflow spends on a case that is not paid yet (in
// tiering, quota or awaiting_payment, with no payment recorded), and on the queries of
// a tenant that has paid for nothing, before any payment covers it. Past it the API
// answers 402 payment-required.
const (
	// UnpaidDocuments bounds the documents (failed ones included) a case takes before
	// it is paid, and UnpaidPages the pages of them Lexflow reads in all, OCR
	// included: a document that would take the case past it is not read.
	UnpaidDocuments = 3
	UnpaidPages     = 30
	// UnpaidSummaryChars bounds the text of each of its documents that the model
	// summarizes before the case is paid (summaryChars after).
	UnpaidSummaryChars = 12_000
	// UnpaidQueryTokens bounds the model tokens of the POST /v1/query calls of a
	// tenant that has paid for nothing (no subscription with a credit or a covered
	// case, no paid case of the caller's), per UTC day.
	UnpaidQueryTokens = 10_000
)

// QueryUsage is the case ID under which the store counts a tenant's POST /v1/query
// model tokens: no case's ID, which is a UUID.
const QueryUsage = "queries"

// BeforePayment reports whether a case in phase, with a payment recorded or not, is
// yet to be paid: a case a subscription covered, or paid, is active.
func BeforePayment(phase string, paid bool) bool {
	return !paid && (phase == PhaseTiering || phase == PhaseQuota || phase == PhaseAwaitingPayment)
}

package schemas

import "time"

// PaymentConfirmed is the payment-confirmed signal: a case's payment went through.
type PaymentConfirmed struct {
	// Reference is the payment provider's reference; the first one confirmed is kept.
	Reference string    `json:"reference"`
	By        string    `json:"by"`
	At        time.Time `json:"at"`
}

// RecordPayment asks for a case's payment to be recorded; the first confirmed payment
// is kept and returned, so a confirmation sent twice changes nothing.
type RecordPayment struct {
	CaseID  string           `json:"case_id"`
	Payment PaymentConfirmed `json:"payment"`
}

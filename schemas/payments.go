package schemas

import "time"

// Payment methods.
const (
	// PaymentCheckout is a payment the payment provider confirmed by its signed webhook.
	PaymentCheckout = "checkout"
	// PaymentOffline is a payment billing staff recorded, such as a bank transfer.
	PaymentOffline = "offline"
)

// PaymentConfirmed is the payment-confirmed signal: a case's payment went through. The
// API sends it only for a provider's verified webhook or billing staff's record; a
// client never confirms a payment.
type PaymentConfirmed struct {
	// ID names the confirmation: the provider's event ID, or the audit record's ID of
	// an offline payment.
	ID string `json:"id"`
	// Reference is the provider's checkout session, or billing's reference of an
	// offline payment; the first one confirmed is kept.
	Reference string `json:"reference"`
	// Method is PaymentCheckout or PaymentOffline.
	Method string `json:"method,omitempty"`
	// Amount is in the currency's minor unit; Currency is ISO 4217, lower case.
	Amount   int64     `json:"amount,omitempty"`
	Currency string    `json:"currency,omitempty"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
}

// RecordPayment asks for a case's payment to be recorded; the first confirmed payment
// is kept and returned, so a confirmation sent twice changes nothing.
type RecordPayment struct {
	CaseID  string           `json:"case_id"`
	Payment PaymentConfirmed `json:"payment"`
	// Tier is the case's tier, whose price the payment must be.
	Tier int `json:"tier"`
}

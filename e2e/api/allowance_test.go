package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lexflow/lexflow/activities"
	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// TestAttackWorkBeforePayment is issue 36's finding 6: a case awaiting payment
// answered messages 402, but its uploads were read, OCRed and summarized, and
// /v1/query answered anyone. Now a case before payment reads schemas.UnpaidPages
// pages of schemas.UnpaidDocuments documents (a document past the pages is not read;
// an upload past the documents answers 402), and a tenant that has paid for nothing
// asks schemas.UnpaidQueryTokens of queries a day, then 402; a paying tenant is not
// held to it.
func TestAttackWorkBeforePayment(t *testing.T) {
	t.Parallel()
	id, tok, org := unpaidCase(t)
	long := strings.Repeat("The tenant shall pay the rent by the fifth day of each month.\n", 2500) // about 38 pages
	up := s.Upload(t, tok, id, "long.txt", []byte(long))
	if up.Status != http.StatusAccepted {
		t.Fatalf("upload: %d %s", up.Status, up.Raw)
	}
	if d := s.WaitForDocument(t, tok, id, up.Body["id"].(string)); d.Status != schemas.DocFailed || d.Cause != schemas.CauseUnpaid || !strings.Contains(d.Reason, "before the case is paid") || d.Pages != 0 {
		t.Errorf("a document past the pages before payment: %+v", d)
	}
	for i, text := range []string{"A short note.", "Another short note."} {
		if r := s.Upload(t, tok, id, "note.txt", []byte(text)); r.Status != http.StatusAccepted {
			t.Fatalf("upload %d: %d %s", i+2, r.Status, r.Raw)
		}
	}
	r := s.Upload(t, tok, id, "one-more.txt", []byte("One document past the allowance."))
	stack.WantProblem(t, r, http.StatusPaymentRequired, "payment-required")
	if !strings.Contains(r.Body["detail"].(string), "/checkout") {
		t.Errorf("the refusal does not say how to go on: %s", r.Raw)
	}
	// Deleting documents gives no allowance back: they were read all the same.
	if d := s.Call(t, "DELETE", "/v1/cases/"+id+"/documents/"+up.Body["id"].(string), tok, nil); d.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", d.Status, d.Raw)
	}
	stack.WantProblem(t, s.Upload(t, tok, id, "one-more.txt", []byte("One document past the allowance.")), http.StatusPaymentRequired, "payment-required")

	question := map[string]any{"question": "Ce prevede art. 1357 din Codul civil?"}
	ask(t, tok, question) // within the allowance
	day := activities.Day(s.Now())
	charge := func(tenant string) {
		t.Helper()
		if err := s.Store.RecordTokens(t.Context(), store.TokenUse{ID: "test-" + uuid.NewString(), Tenant: tenant, CaseID: schemas.QueryUsage,
			Day: day, Tokens: schemas.UnpaidQueryTokens, At: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	charge(schemas.TenantKey(org, ""))
	stack.WantProblem(t, s.Call(t, "POST", "/v1/query", tok, question), http.StatusPaymentRequired, "payment-required")
	payer := s.Token(t, "query-payer") // of acme, whose subscription has credits
	charge(schemas.TenantKey("acme", ""))
	ask(t, payer, question)
}

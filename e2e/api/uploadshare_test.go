package api_test

import (
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"testing"
	"time"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/schemas"
)

// trickle starts an upload whose body does not end before the test does: its head is
// sent and the rest held back, as a client sending a byte now and then would. If the
// server answers before the body ends, the status goes to answered.
func trickle(t *testing.T, c *stack.Client, tok, caseID string, answered chan<- int) {
	t.Helper()
	pr, pw := io.Pipe()
	t.Cleanup(func() { pw.CloseWithError(io.ErrUnexpectedEOF) })
	mw := multipart.NewWriter(pw)
	req, err := http.NewRequestWithContext(t.Context(), "POST", c.APIURL+"/v1/cases/"+caseID+"/documents", pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+tok)
	go func() {
		resp, err := (&http.Client{Transport: &http.Transport{}}).Do(req)
		if err != nil {
			return // the test ended
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	go func() {
		if w, err := mw.CreateFormFile("file", "slow.txt"); err == nil {
			_, _ = w.Write([]byte("A document that takes its time"))
		}
	}()
}

// TestAttackTrickledUploadsHoldOnlyTheirTenantsShare is issue 36's finding 4: eight
// upload slots per API process were shared by everyone, so one user trickling eight
// bodies made every tenant's uploads answer 429 for two minutes. Now a tenant holds
// at most api.TenantUploads of them: its further uploads answer 429 at once, and
// another organization's upload is read.
func TestAttackTrickledUploadsHoldOnlyTheirTenantsShare(t *testing.T) {
	t.Parallel()
	own := s.Serve(t, nil) // a process of its own: its slots are this test's
	attacker := s.Mint(t, auth.Identity{Subject: "trickler", Org: "acme", Roles: []string{schemas.RoleUser}})
	target := own.CreateCase(t, attacker, "A case to upload slowly to")
	answered := make(chan int, api.MaxUploads)
	for range api.MaxUploads {
		trickle(t, own, attacker, target, answered)
	}
	deadline := time.After(30 * time.Second)
	for range api.MaxUploads - api.TenantUploads {
		select {
		case st := <-answered:
			if st != http.StatusTooManyRequests {
				t.Fatalf("a trickled upload past the tenant's share answered %d, want 429", st)
			}
		case <-deadline:
			t.Fatalf("the trickled uploads past the tenant's share (%d of %d) were not refused", api.MaxUploads-api.TenantUploads, api.MaxUploads)
		}
	}
	stack.WantProblem(t, own.Upload(t, attacker, target, "one-more.txt", []byte("And another")), http.StatusTooManyRequests, "too-many-requests")

	bystander := s.Mint(t, auth.Identity{Subject: "bystander", Org: fmt.Sprint("other-", time.Now().UnixNano()), Roles: []string{schemas.RoleUser}})
	id := own.CreateCase(t, bystander, "Another firm's case")
	if r := own.Upload(t, bystander, id, "lease.txt", []byte("The lease runs for two years.")); r.Status != http.StatusAccepted {
		t.Errorf("another organization's upload while the trickles hold their share: %d %s", r.Status, r.Raw)
	}
}

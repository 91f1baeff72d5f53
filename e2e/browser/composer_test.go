package browser

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/e2e/stack"
)

// TestSendRightAfterATurn: when a turn ends, the page reads the case again, but the
// case's record drops its busy mark only after the turn's end has reached the event
// log; read in between, it still says busy. The page trusts the log for its turns,
// so the client can send the next message at once. Here every write of the case's
// status takes 3 s, so the page's read after the first turn finds the record busy.
func TestSendRightAfterATurn(t *testing.T) {
	appURL := serveApp(t, stack.SlowStatus+"=3s")
	p := openPage(t, "en-US", 1280, 900)
	p.signIn(appURL, "composer-browser", "acme")
	p.openCase("My landlord keeps the deposit after the lease ended")
	p.send("fact: The lease ended on 2026-02-28")
	p.waitFor("the first answer", turnDone(1), time.Minute)

	// Once the record is free, the page has read it busy after the turn (it reads
	// 200 ms after the turn's end, the record changes 3 s after).
	id := strings.TrimPrefix(eval[string](p, `location.hash`), "#/cases/")
	tok := s.Token(t, "composer-browser")
	deadline := time.Now().Add(time.Minute)
	for recordBusy(t, appURL, id, tok) {
		if time.Now().After(deadline) {
			t.Fatal("the case's record still says busy a minute after its turn")
		}
		select {
		case <-t.Context().Done():
			return
		case <-time.After(250 * time.Millisecond):
		}
	}
	if disabled := eval[bool](p, `document.querySelector(".composer button[type=submit]").disabled`); disabled {
		t.Fatalf("the send button is disabled after the turn ended (page: %s)", eval[string](p, pageState))
	}
	p.send("fact: The deposit was 2000 lei")
	p.waitFor("the second answer", turnDone(2), time.Minute)
}

// recordBusy reads the case's record through the API and reports whether it says the
// case is busy.
func recordBusy(t *testing.T, appURL, id, tok string) bool {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, appURL+"/v1/cases/"+id, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var c api.CaseView
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&c) != nil || c.State == nil {
		t.Fatalf("GET the case: %s", resp.Status)
	}
	return c.State.Busy
}

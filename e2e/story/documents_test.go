package story_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/lexflow/lexflow/e2e/stack"
	"github.com/lexflow/lexflow/internal/codec"
	"github.com/lexflow/lexflow/internal/doctext/doctexttest"
	"github.com/lexflow/lexflow/llm/offline"
	"github.com/lexflow/lexflow/schemas"
)

// documentValues are the personal data of the document fixtures: the lease's landlord
// and the summons' plaintiff (parties of the case), and the IBANs, e-mails, phone
// numbers and codice fiscale found by their form.
var documentValues = []string{
	"Ștefan", "Țurcanu", "1800101221144", "stefan.turcanu@example.ro", "RO49AAAA1B31007593840000", "0722 123 456",
	"Mario Rossi", "RSSMRA85T10A562S", "IT60X0542811101000000123456", "mario.rossi@example.it", "+39 06 1234 5678",
}

// TestDocumentStory: a client uploads a lease (DOCX), a summons (PDF with a text
// layer) and the same summons photographed (PNG, read by OCR); each is read and
// summarized, and the model answers a question about a clause of the lease. No model
// request, and no Temporal history of the case, even with its payloads opened, holds
// any of the documents' personal data, while the summaries cite the documents.
func TestDocumentStory(t *testing.T) {
	t.Parallel()
	models := stack.StartModelRecorder(t)
	c, queue := s.ServeQueue(t, "e2e-documents")
	s.StartHelperWorker(t, queue, 0, "LEXFLOW_ASSISTANT_BASE_URL="+models.URL+"/v1", "LEXFLOW_ASSISTANT_MODEL="+offline.ModelName)
	client := s.Token(t, "ilinca")
	r := c.Call(t, "POST", "/v1/cases", client, map[string]any{"description": "Proprietarul nu îmi restituie garanția și am primit o citație", "language": "ro"})
	id := r.Body["case_id"].(string)
	// Its worker is a second process writing to the embedded FerretDB, whose updates
	// are not atomic across processes (store/mongostore's lock is per process): let
	// tiering record the tier before the API records the uploads.
	c.WaitForStatus(t, client, id, schemas.StatusOpen, schemas.PhaseActive)
	for _, p := range []map[string]any{
		{"first_name": "Ștefan", "last_name": "Țurcanu", "cnp": "1800101221144", "email": "stefan.turcanu@example.ro"},
		{"first_name": "Mario", "last_name": "Rossi", "email": "mario.rossi@example.it"},
	} {
		if r := c.Call(t, "POST", "/v1/cases/"+id+"/parties", client, p); r.Status != http.StatusCreated {
			t.Fatalf("party: %d %s", r.Status, r.Raw)
		}
	}
	scan := doctexttest.ScanPNG(t, doctexttest.SummonsIT)
	uploads := []struct {
		name string
		data []byte
	}{
		{"contract.docx", doctexttest.DOCX(t, doctexttest.LeaseRO)},
		{"citazione.pdf", doctexttest.TextPDF(t, doctexttest.SummonsIT)},
		{"citazione-foto.png", scan},
	}
	for _, u := range uploads {
		up := c.Upload(t, client, id, u.name, u.data)
		if up.Status != http.StatusAccepted {
			t.Fatalf("upload %s: %d %s", u.name, up.Status, up.Raw)
		}
		d := c.WaitForDocument(t, client, id, up.Body["id"].(string))
		if d.Status != schemas.DocRead || !strings.HasPrefix(d.Summary, d.Title+" (1 pagini)") {
			t.Errorf("%s: %+v", u.name, d)
		}
		for _, v := range documentValues {
			if strings.Contains(d.Summary, v) {
				t.Errorf("%s: the summary holds %q: %q", u.name, v, d.Summary)
			}
		}
		if u.name == "citazione-foto.png" && (d.OCRPages != 1 || !strings.Contains(d.Summary, "{{party1.fullName}}")) {
			t.Errorf("the photo was not read well enough to find the party: %+v", d)
		}
	}

	turn := c.Send(t, client, id, "Documentul: când se restituie garanția?")
	reply, _ := turn.Body["reply"].(string)
	if !strings.Contains(reply, "«Art. 5. Garanția se restituie la încetarea contractului.»") {
		t.Errorf("reply %q does not quote the clause", reply)
	}

	seen := models.Seen()
	if !slices.ContainsFunc(seen, func(req string) bool { return strings.Contains(req, "Între {{party0.fullName}}, CNP {{party0.cnp}}") }) {
		t.Errorf("no model request shows the lease pseudonymized; the recorder saw %d requests", len(seen))
	}
	for _, req := range seen {
		for _, v := range documentValues {
			if strings.Contains(req, v) {
				t.Errorf("a model request holds %q", v)
			}
		}
	}
	checkHistoriesFree(t, id, documentValues, 6) // the case, tiering, 3 documents, the turn
	checkOpenedHistoriesFree(t, id, documentValues)
	s.RecordHistories(t, "documents", id)
}

// checkOpenedHistoriesFree opens (decrypts) every payload of every workflow run of the
// case and fails if any holds one of values: what the codec server would show support.
func checkOpenedHistoriesFree(t *testing.T, caseID string, values []string) {
	t.Helper()
	c := &codec.Codec{Keys: s.Keys}
	resp, err := s.TC.ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{
		Query: fmt.Sprintf("WorkflowId STARTS_WITH '%s'", schemas.CaseWorkflowID(caseID)), PageSize: 1000})
	if err != nil {
		t.Fatal(err)
	}
	opened, documents := 0, 0
	for _, e := range resp.Executions {
		wf := e.GetExecution()
		if strings.Contains(wf.GetWorkflowId(), ":document:") {
			documents++
		}
		s.VisitHistoryPayloads(t, wf.GetWorkflowId(), wf.GetRunId(), func(p *commonpb.Payload) {
			open, err := c.Decode([]*commonpb.Payload{p})
			if err != nil {
				t.Fatalf("%s: %v", wf.GetWorkflowId(), err)
			}
			opened++
			for _, v := range values {
				if strings.Contains(string(open[0].GetData()), v) {
					t.Errorf("%s holds %q once opened", wf.GetWorkflowId(), v)
				}
			}
		})
	}
	if documents != 3 || opened < 30 {
		t.Errorf("opened %d payloads of %d document workflows; want the 3 documents' and many", opened, documents)
	}
}

package workflows

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/lexflow/lexflow/schemas"
)

// TestDocumentRecordsHowTheReadingEnded: a document read is summarized and recorded
// with its summary; one the reader refuses is recorded failed with its reason and
// never summarized; one the reader fails on through its retries is recorded failed
// with a reason for the client; one the model cannot summarize is recorded read
// without a summary.
func TestDocumentRecordsHowTheReadingEnded(t *testing.T) {
	in := schemas.DocumentInput{CaseID: "c1", DocID: "d1", Language: "it"}
	for _, tc := range []struct {
		name       string
		read       schemas.DocumentRead
		readErr    error
		summaryErr error
		want       schemas.RecordDocument
	}{
		{"read", schemas.DocumentRead{Pages: 2, OCRPages: 1}, nil, nil,
			schemas.RecordDocument{DocumentInput: in, DocumentRead: schemas.DocumentRead{Pages: 2, OCRPages: 1}, Summary: "Un contratto."}},
		{"refused", schemas.DocumentRead{Reason: "the PDF is protected by a password"}, nil, nil,
			schemas.RecordDocument{DocumentInput: in, DocumentRead: schemas.DocumentRead{Reason: "the PDF is protected by a password"}}},
		{"reader down", schemas.DocumentRead{}, errors.New("tesseract: not found"), nil,
			schemas.RecordDocument{DocumentInput: in, DocumentRead: schemas.DocumentRead{Reason: readerFailed}}},
		{"model down", schemas.DocumentRead{Pages: 1}, nil, temporal.NewNonRetryableApplicationError("rejected", schemas.ErrModelRejected, nil),
			schemas.RecordDocument{DocumentInput: in, DocumentRead: schemas.DocumentRead{Pages: 1}}},
	} {
		var s testsuite.WorkflowTestSuite
		env := s.NewTestWorkflowEnvironment()
		env.OnActivity(docActs.ExtractDocument, mock.Anything, in).Return(tc.read, tc.readErr)
		summarized := 0
		env.OnActivity(docActs.SummarizeDocument, mock.Anything, in).Return(func(_ context.Context, _ schemas.DocumentInput) (schemas.DocumentSummary, error) {
			summarized++
			return schemas.DocumentSummary{Summary: "Un contratto."}, tc.summaryErr
		})
		var recorded schemas.RecordDocument
		env.OnActivity(docActs.RecordDocument, mock.Anything, mock.Anything).Return(func(_ context.Context, r schemas.RecordDocument) error {
			recorded = r
			return nil
		})
		env.ExecuteWorkflow(Document, in)
		if err := env.GetWorkflowError(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if recorded != tc.want {
			t.Errorf("%s: recorded %+v, want %+v", tc.name, recorded, tc.want)
		}
		if tc.read.Reason != "" || tc.readErr != nil {
			if summarized != 0 {
				t.Errorf("%s: a document not read was summarized", tc.name)
			}
		}
	}
}

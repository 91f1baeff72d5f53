package eval

import "testing"

// TestRetrievalItemsNameTheirJurisdiction: a decision question is asked within ro or
// it, and expects only that jurisdiction's decisions.
func TestRetrievalItemsNameTheirJurisdiction(t *testing.T) {
	if _, err := RetrievalItems(); err != nil {
		t.Fatal(err)
	}
	for _, it := range []RetrievalItem{
		{ID: "none", Expect: []string{"it/cass/1-2024"}},
		{ID: "eu", Jurisdiction: "eu", Expect: []string{"it/cass/1-2024"}},
		{ID: "other", Jurisdiction: "ro", Expect: []string{"it/cass/1-2024"}},
	} {
		if it.checkJurisdiction() == nil {
			t.Errorf("item %s (%q, expecting %v) was taken", it.ID, it.Jurisdiction, it.Expect)
		}
	}
}

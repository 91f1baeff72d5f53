package eval

import (
	"strings"
	"testing"
)

// TestLayerTargetsFail: a default-layer row under its floor fails, and so does one
// under the decision target and a floor no row measures; other layers' rows
// are not held to the floors.
func TestLayerTargetsFail(t *testing.T) {
	def := Layers[len(Layers)-1].Name
	var rows []RankRow
	for group, f := range floors {
		kind, g, _ := strings.Cut(group, ", ")
		rows = append(rows, RankRow{Kind: kind, Layer: def, Group: g, At5: ratio{f.at5, f.at5}, MRR: f.mrr})
	}
	if got := LayerTargets(rows); len(got) != 0 {
		t.Fatalf("rows at their floors: %v", got)
	}
	low := append([]RankRow{}, rows...)
	for i := range low {
		if low[i].Kind == "decisions" && low[i].Group == "en" {
			low[i].MRR = 0
		}
	}
	low = append(low, RankRow{Kind: "decisions", Layer: Layers[0].Name, Group: "en"})
	if got := LayerTargets(low); len(got) != 1 || !strings.Contains(got[0], "decisions, en") {
		t.Errorf("English decisions under their floor: %v", got)
	}
	under := append([]RankRow{}, rows...)
	for i := range under {
		if under[i].Kind == "decisions" && under[i].Group == "en" {
			under[i].At5.total = under[i].At5.hits*100/60 + 1
		}
	}
	if got := LayerTargets(under); len(got) != 1 || !strings.Contains(got[0], "decisions in en") || !strings.Contains(got[0], "under 60%") {
		t.Errorf("English decisions under the issue's 60%%: %v", got)
	}
	if got := LayerTargets(rows[1:]); len(got) != 1 || !strings.Contains(got[0], "no question measures") {
		t.Errorf("a floor without its row: %v", got)
	}
}

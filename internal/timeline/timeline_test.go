package timeline

import (
	"bytes"
	"fmt"
	"image/png"
	"slices"
	"strings"
	"testing"
	"time"
)

func date(s string) time.Time {
	t, err := time.Parse(dayLayout, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestLayPlotsInDayOrder(t *testing.T) {
	events := []Event{
		{Day: date("2026-05-12"), Label: "Termen de apel", Lane: LaneDeadlines},
		{Day: date("2026-01-10"), Label: "Contractul semnat de Ion Popescu", Lane: LaneFacts},
		{Day: date("2026-03-03"), Label: "Termen: Amână cauza", Lane: LaneHearings},
		{Day: date("2026-02-01").Add(15 * time.Hour), Label: "Case opened", Lane: LaneEvents},
		{Day: date("2026-02-02"), Label: "no lane", Lane: "elsewhere"},
		{Label: "no day", Lane: LaneFacts},
	}
	l := Lay(events, Options{Title: "Cronologia", Width: 800, Height: 480, Today: date("2026-04-01")})
	var got []string
	for _, e := range l.Events {
		got = append(got, e.Day+" "+e.Lane+" "+e.Label)
	}
	want := []string{"2026-01-10 facts Contractul semnat de Ion Popescu", "2026-02-01 events Case opened",
		"2026-03-03 hearings Termen: Amână cauza", "2026-05-12 deadlines Termen de apel"}
	if !slices.Equal(got, want) {
		t.Fatalf("events = %q, want %q", got, want)
	}
	if l.From != "2026-01-10" || l.To != "2026-05-12" || l.Today != "2026-04-01" {
		t.Errorf("axis %s..%s today %s", l.From, l.To, l.Today)
	}
	if l.Events[0].X != marginLeft || l.Events[3].X != 800-marginRight {
		t.Errorf("first x %d, last x %d: want the axis' ends", l.Events[0].X, l.Events[3].X)
	}
	for i := 1; i < len(l.Events); i++ {
		if l.Events[i].X <= l.Events[i-1].X {
			t.Errorf("x %d of %s is not right of %d", l.Events[i].X, l.Events[i].Day, l.Events[i-1].X)
		}
	}
	for _, e := range l.Events {
		if top := l.laneTop(e.Lane); e.LabelY <= top || e.LabelY > top+l.laneHeight() {
			t.Errorf("%s's label at y %d is outside its lane (%d+%d)", e.Label, e.LabelY, top, l.laneHeight())
		}
	}
}

func TestLayKeepsLabelsApart(t *testing.T) {
	var events []Event
	for i := range 6 {
		events = append(events, Event{Day: date("2026-03-01").AddDate(0, 0, i), Label: fmt.Sprintf("a rather long label %d", i), Lane: LaneFacts})
	}
	l := Lay(events, Options{Width: 1200, Height: 800})
	m := newMeasure()
	for i, a := range l.Events {
		for _, b := range l.Events[i+1:] {
			if a.LabelY == b.LabelY && a.LabelX < b.LabelX+m.width(b.Label) && b.LabelX < a.LabelX+m.width(a.Label) {
				t.Errorf("labels %q and %q overlap on row %d", a.Label, b.Label, a.LabelY)
			}
		}
	}
}

func TestLayBounds(t *testing.T) {
	var events []Event
	for i := range MaxEvents + 5 {
		events = append(events, Event{Day: date("2026-01-01").AddDate(0, 0, i), Label: strings.Repeat("x", 80), Lane: LaneEvents})
	}
	l := Lay(events, Options{Title: strings.Repeat("t", 200), Width: MinSide, Height: MinSide})
	if len(l.Events) != MaxEvents || l.LeftOut != 5 || l.Events[0].Day != "2026-01-06" {
		t.Errorf("%d events from %s, %d left out; want the latest %d", len(l.Events), l.Events[0].Day, l.LeftOut, MaxEvents)
	}
	if n := len([]rune(l.Events[0].Label)); n != MaxLabel {
		t.Errorf("label of %d characters, want %d", n, MaxLabel)
	}
	if n := len([]rune(l.Title)); n != MaxTitle {
		t.Errorf("title of %d characters, want %d", n, MaxTitle)
	}
	one := Lay([]Event{{Day: date("2026-01-01"), Label: "alone", Lane: LaneFacts}}, Options{Width: 600, Height: 400})
	if one.From != "2025-12-29" || one.To != "2026-01-05" || one.Events[0].X <= marginLeft || one.Events[0].X >= 600-marginRight {
		t.Errorf("one event: axis %s..%s, x %d; want a week around it", one.From, one.To, one.Events[0].X)
	}
}

func TestCheckSize(t *testing.T) {
	for _, c := range []struct {
		w, h int
		ok   bool
	}{{320, 2048, true}, {1024, 1024, true}, {319, 500, false}, {500, 2049, false}, {0, 0, false}} {
		if got := CheckSize(c.w, c.h) == ""; got != c.ok {
			t.Errorf("CheckSize(%d, %d) ok = %v, want %v", c.w, c.h, got, c.ok)
		}
	}
}

func TestRenderCarriesItsLayout(t *testing.T) {
	l := Lay([]Event{
		{Day: date("2026-01-10"), Label: "Contractul semnat – ștampilă", Lane: LaneFacts},
		{Day: date("2026-05-12"), Label: "Termen de apel", Lane: LaneDeadlines},
	}, Options{Title: "Cronologia cazului", Width: 640, Height: 360, LaneNames: map[string]string{LaneFacts: "Fapte"}})
	raw, err := Render(l)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 640 || b.Dy() != 360 {
		t.Errorf("size %v, want 640x360", b)
	}
	back, err := Read(raw)
	if err != nil {
		t.Fatal(err)
	}
	if back.Title != l.Title || !slices.Equal(back.Events, l.Events) || back.LaneNames[LaneFacts] != "Fapte" || back.LaneNames[LaneHearings] != LaneHearings {
		t.Errorf("read back %+v, want %+v", back, l)
	}
	// The marker of the deadline is drawn in the deadlines' colour.
	e := l.Events[1]
	if r, g, b, _ := img.At(e.X, l.laneTop(e.Lane)+laneMarkerY).RGBA(); r>>8 != 0xc0 || g>>8 != 0x1c || b>>8 != 0x28 {
		t.Errorf("marker colour %x %x %x", r>>8, g>>8, b>>8)
	}
	if _, err := Read(raw[:ihdrEnd+40]); err == nil {
		t.Error("a PNG cut inside its layout read")
	}
	broken := slices.Clone(raw)
	broken[ihdrEnd+20] ^= 0xff
	if _, err := Read(broken); err == nil {
		t.Error("a PNG with a corrupt layout chunk read")
	}
	empty, err := Render(Lay(nil, Options{Width: MinSide, Height: MinSide}))
	if l, rerr := Read(empty); err != nil || rerr != nil || len(l.Events) != 0 || l.From != "" {
		t.Errorf("an empty chart: %v, %v, %+v", err, rerr, l)
	}
	if _, err := Render(Layout{Width: 100, Height: 100}); err == nil {
		t.Error("a 100x100 chart rendered")
	}
}

// Package timeline lays a case's dated events out on a chart, one lane per kind of
// event (facts, deadlines, hearings, the case's own events), and renders it as a PNG
// in pure Go. The PNG carries its layout, so that a reader can tell what it plots, and
// where, without reading its pixels (see Read).
package timeline

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// The lanes, top to bottom.
const (
	LaneFacts     = "facts"
	LaneDeadlines = "deadlines"
	LaneHearings  = "hearings"
	LaneEvents    = "events"
)

// Lanes are the chart's lanes in their order, top to bottom.
var Lanes = []string{LaneFacts, LaneDeadlines, LaneHearings, LaneEvents}

// Bounds of a chart.
const (
	// MinSide and MaxSide bound the width and the height, in pixels.
	MinSide = 320
	MaxSide = 2048
	// MaxEvents is how many events one chart plots: the latest ones when there are
	// more.
	MaxEvents = 200
	// MaxLabel is how many characters of a label are drawn and kept.
	MaxLabel = 48
	// MaxTitle is how many characters of the title are drawn and kept.
	MaxTitle = 120
)

// dayLayout is how a Placed event's day is written.
const dayLayout = "2006-01-02"

// Event is one dated thing to plot.
type Event struct {
	Day   time.Time
	Label string
	Lane  string
}

// Options are a chart's size, title and lane names.
type Options struct {
	Title         string
	Width, Height int
	// Today, when set and within the events' span, is marked with a vertical line.
	Today time.Time
	// LaneNames are the lanes' names as drawn, by lane; the lane's own name when
	// missing.
	LaneNames map[string]string
}

// Placed is an event as the chart plots it: its day, its label as drawn, its lane,
// and where its marker is (X) and its label starts (LabelX, LabelY, the baseline).
type Placed struct {
	Day    string `json:"day"`
	Label  string `json:"label"`
	Lane   string `json:"lane"`
	X      int    `json:"x"`
	LabelX int    `json:"label_x"`
	LabelY int    `json:"label_y"`
}

// Layout is what a chart plots: its size and title, the first and last day of its
// axis, its events in day order, and how many events were left out for MaxEvents.
type Layout struct {
	Title     string            `json:"title"`
	Width     int               `json:"width"`
	Height    int               `json:"height"`
	From      string            `json:"from,omitempty"`
	To        string            `json:"to,omitempty"`
	Today     string            `json:"today,omitempty"`
	LaneNames map[string]string `json:"lane_names"`
	Events    []Placed          `json:"events"`
	LeftOut   int               `json:"left_out,omitempty"`
}

// Chart geometry, in pixels.
const (
	marginLeft   = 110
	marginRight  = 16
	marginTop    = 40
	marginBottom = 34
	rowHeight    = 16
	laneMarkerY  = 12 // the lane's marker line, below the lane's top
	labelGap     = 6  // the least space between two labels of a row
)

// CheckSize says why a width or height is not one a chart may have, or "".
func CheckSize(width, height int) string {
	if width < MinSide || width > MaxSide || height < MinSide || height > MaxSide {
		return fmt.Sprintf("width and height must be from %d to %d pixels (got %dx%d)", MinSide, MaxSide, width, height)
	}
	return ""
}

// Lay places events on a chart of o's size: in day order (then lane, then label),
// the latest MaxEvents of them, each at the x of its day on an axis from the first
// day to the last, in its lane, its label in the first row of the lane where it does
// not overlap the label before it. Events of an unknown lane or a zero day are left
// out. The size must pass CheckSize.
func Lay(events []Event, o Options) Layout {
	l := Layout{Title: clip(o.Title, MaxTitle), Width: o.Width, Height: o.Height, LaneNames: map[string]string{}}
	for _, lane := range Lanes {
		l.LaneNames[lane] = cmp.Or(o.LaneNames[lane], lane)
	}
	var evs []Event
	for _, e := range events {
		if slices.Contains(Lanes, e.Lane) && !e.Day.IsZero() {
			e.Day = day(e.Day)
			e.Label = clip(e.Label, MaxLabel)
			evs = append(evs, e)
		}
	}
	slices.SortStableFunc(evs, func(a, b Event) int {
		return cmp.Or(a.Day.Compare(b.Day), cmp.Compare(slices.Index(Lanes, a.Lane), slices.Index(Lanes, b.Lane)),
			strings.Compare(a.Label, b.Label))
	})
	if n := len(evs) - MaxEvents; n > 0 {
		l.LeftOut, evs = n, evs[n:]
	}
	l.Events = []Placed{}
	if len(evs) == 0 {
		return l
	}
	from, to := evs[0].Day, evs[len(evs)-1].Day
	// A day's span is at least a week, the events centred in it.
	if days := int(to.Sub(from).Hours() / 24); days < 7 {
		from = from.AddDate(0, 0, -(7-days)/2)
		to = from.AddDate(0, 0, 7)
	}
	l.From, l.To = from.Format(dayLayout), to.Format(dayLayout)
	if t := day(o.Today); !o.Today.IsZero() && !t.Before(from) && !t.After(to) {
		l.Today = t.Format(dayLayout)
	}
	m := newMeasure()
	rowsEnd := make(map[string][]int) // the right end of each row's last label, by lane
	for _, e := range evs {
		x := l.xOf(e.Day)
		top := l.laneTop(e.Lane)
		rows := rowsEnd[e.Lane]
		if rows == nil {
			rows = make([]int, l.rowsPerLane())
			for i := range rows {
				rows[i] = -1 << 30
			}
		}
		w := m.width(e.Label)
		lx := min(x, l.Width-marginRight-w)
		lx = max(lx, marginLeft)
		row := slices.IndexFunc(rows, func(end int) bool { return end+labelGap <= lx })
		if row < 0 { // every row is taken here: the row that frees first
			row = slices.Index(rows, slices.Min(rows))
		}
		rows[row] = lx + w
		rowsEnd[e.Lane] = rows
		l.Events = append(l.Events, Placed{Day: e.Day.Format(dayLayout), Label: e.Label, Lane: e.Lane, X: x,
			LabelX: lx, LabelY: top + laneMarkerY + (row+1)*rowHeight})
	}
	return l
}

// xOf is the x of a day on l's axis.
func (l Layout) xOf(d time.Time) int {
	from, _ := time.Parse(dayLayout, l.From)
	to, _ := time.Parse(dayLayout, l.To)
	plot := l.Width - marginLeft - marginRight
	return marginLeft + int(float64(plot)*float64(d.Sub(from))/float64(to.Sub(from)))
}

// laneHeight is the height of each lane.
func (l Layout) laneHeight() int {
	return (l.Height - marginTop - marginBottom) / len(Lanes)
}

// laneTop is the y of a lane's top.
func (l Layout) laneTop(lane string) int {
	return marginTop + slices.Index(Lanes, lane)*l.laneHeight()
}

// rowsPerLane is how many rows of labels a lane holds under its marker line.
func (l Layout) rowsPerLane() int {
	return max(1, (l.laneHeight()-laneMarkerY-4)/rowHeight)
}

// day is t's calendar day, at midnight UTC.
func day(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// clip cuts s, its spaces folded, to n characters, marking a cut with an ellipsis.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

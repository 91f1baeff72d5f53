package timeline

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"slices"
	"sync"
	"time"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// Font sizes, in pixels.
const (
	labelSize = 11
	titleSize = 15
)

// fonts are the embedded Go fonts, parsed once per process: regular for labels, bold
// for the title and the lane names. They cover WGL4, Romanian and Italian letters
// included.
var fonts = sync.OnceValue(func() [2]*sfnt.Font {
	var fs [2]*sfnt.Font
	for i, ttf := range [][]byte{goregular.TTF, gobold.TTF} {
		f, err := opentype.Parse(ttf)
		if err != nil {
			panic(fmt.Sprintf("timeline: embedded font: %v", err)) // the Go fonts are known to parse
		}
		fs[i] = f
	}
	return fs
})

// newFace returns a face of an embedded font (0 regular, 1 bold) at size pixels. A
// face is not safe for concurrent use, so each render makes its own.
func newFace(bold, size int) font.Face {
	f, err := opentype.NewFace(fonts()[bold], &opentype.FaceOptions{Size: float64(size), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(fmt.Sprintf("timeline: font face: %v", err)) // only a bad size fails
	}
	return f
}

// measure tells how wide a label is drawn.
type measure struct{ face font.Face }

func newMeasure() measure { return measure{newFace(0, labelSize)} }

func (m measure) width(s string) int { return font.MeasureString(m.face, s).Ceil() }

// Colours of the chart.
var (
	white     = color.RGBA{0xff, 0xff, 0xff, 0xff}
	ink       = color.RGBA{0x22, 0x22, 0x22, 0xff}
	faint     = color.RGBA{0x88, 0x88, 0x88, 0xff}
	band      = color.RGBA{0xf3, 0xf4, 0xf6, 0xff}
	todayRed  = color.RGBA{0xc0, 0x1c, 0x28, 0xff}
	laneColor = map[string]color.RGBA{
		LaneFacts:     {0x1f, 0x6f, 0xb2, 0xff},
		LaneDeadlines: {0xc0, 0x1c, 0x28, 0xff},
		LaneHearings:  {0x7a, 0x3e, 0x9d, 0xff},
		LaneEvents:    {0x2e, 0x7d, 0x32, 0xff},
	}
)

// Render draws l as a PNG that carries l itself (see Read): a title, one band per
// lane with its name, each event's marker on its lane's line and its label below, a
// dated axis, and today's line.
func Render(l Layout) ([]byte, error) {
	if reason := CheckSize(l.Width, l.Height); reason != "" {
		return nil, fmt.Errorf("render timeline: %s", reason)
	}
	img := image.NewRGBA(image.Rect(0, 0, l.Width, l.Height))
	fill(img, img.Bounds(), white)
	regular, bold, title := newFace(0, labelSize), newFace(1, labelSize), newFace(1, titleSize)
	text(img, title, ink, marginLeft/4, marginTop-14, l.Title)
	plotRight := l.Width - marginRight
	for i, lane := range Lanes {
		top := l.laneTop(lane)
		if i%2 == 0 { // the even lanes on a band, the odd ones on white
			fill(img, image.Rect(0, top, l.Width, top+l.laneHeight()), band)
		}
		text(img, bold, laneColor[lane], 8, top+laneMarkerY+4, l.LaneNames[lane])
		fill(img, image.Rect(marginLeft, top+laneMarkerY, plotRight, top+laneMarkerY+1), faint)
	}
	axisY := l.Height - marginBottom
	fill(img, image.Rect(marginLeft, axisY, plotRight, axisY+1), ink)
	if l.From != "" {
		ticks(img, regular, l, axisY)
	}
	if t, err := time.Parse(dayLayout, l.Today); err == nil {
		x := l.xOf(t)
		for y := marginTop; y < axisY; y += 6 {
			fill(img, image.Rect(x, y, x+1, y+3), todayRed)
		}
	}
	for _, e := range l.Events {
		c := laneColor[e.Lane]
		disc(img, e.X, l.laneTop(e.Lane)+laneMarkerY, 4, c)
		fill(img, image.Rect(e.X, l.laneTop(e.Lane)+laneMarkerY, e.X+1, e.LabelY-labelSize+2), c)
	}
	// Labels go over the stems, each on its lane's background.
	for _, e := range l.Events {
		bg := white
		if slices.Index(Lanes, e.Lane)%2 == 0 {
			bg = band
		}
		w := font.MeasureString(regular, e.Label).Ceil()
		fill(img, image.Rect(e.LabelX-1, e.LabelY-labelSize+1, e.LabelX+w+1, e.LabelY+3), bg)
		text(img, regular, ink, e.LabelX, e.LabelY, e.Label)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("render timeline: %w", err)
	}
	return withLayout(buf.Bytes(), l)
}

// ticks draws the axis' dates: its first and last day and as many between as fit.
func ticks(img *image.RGBA, face font.Face, l Layout, axisY int) {
	from, _ := time.Parse(dayLayout, l.From)
	to, _ := time.Parse(dayLayout, l.To)
	n := max(1, (l.Width-marginLeft-marginRight)/110)
	var days []time.Time
	for i := range n + 1 {
		d := day(from.Add(time.Duration(float64(to.Sub(from)) * float64(i) / float64(n))))
		if !slices.ContainsFunc(days, d.Equal) {
			days = append(days, d)
		}
	}
	for _, d := range days {
		x := l.xOf(d)
		fill(img, image.Rect(x, axisY, x+1, axisY+5), ink)
		s := d.Format(dayLayout)
		w := font.MeasureString(face, s).Ceil()
		text(img, face, ink, min(max(x-w/2, 0), l.Width-w), axisY+18, s)
	}
}

// fill paints r in c.
func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Src)
}

// disc paints a filled circle of radius r centred at (x, y).
func disc(img *image.RGBA, x, y, r int, c color.RGBA) {
	for dy := -r; dy <= r; dy++ {
		for dx := -r; dx <= r; dx++ {
			if dx*dx+dy*dy <= r*r {
				img.SetRGBA(x+dx, y+dy, c)
			}
		}
	}
}

// text draws s with its baseline at (x, y).
func text(img *image.RGBA, face font.Face, c color.RGBA, x, y int, s string) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: face, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

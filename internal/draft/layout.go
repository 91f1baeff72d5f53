package draft

import (
	"math"
	"strings"
)

// style is how a run of inline text prints.
type style struct {
	bold, italic, mono, strike bool
	link                       string // the target of a link, or ""
}

// span is a run of inline text in one style. A span whose text is "\n" is a hard line
// break.
type span struct {
	text string
	st   style
}

// piece is a measured fragment of a line in one style.
type piece struct {
	text  string
	st    style
	width float64 // millimetres
}

// word is text between spaces: one or more pieces (in "**Art.** 5," the bold "Art."
// and the plain "5," are one word), with the space that follows it, if any.
type word struct {
	pieces []piece
	width  float64
	space  *piece
	brk    bool // a hard line break follows
}

// line is one laid-out line.
type line struct {
	pieces []piece
	width  float64
}

// add appends pieces to the line.
func (l *line) add(ps ...piece) {
	for _, p := range ps {
		l.pieces = append(l.pieces, p)
		l.width += p.width
	}
}

// words splits spans into measured words at size points. Runs of spaces count as one.
func words(spans []span, size float64) []word {
	var ws []word
	var cur word
	open := false // cur has text, or a line break ended it
	end := func() {
		if open {
			ws = append(ws, cur)
		}
		cur, open = word{}, false
	}
	for _, s := range spans {
		if s.text == "\n" {
			cur.brk, open = true, true
			end()
			continue
		}
		for i, part := range strings.Split(s.text, " ") {
			if i > 0 { // a space came before part
				if open {
					sp := piece{text: " ", st: s.st, width: textWidth(" ", s.st, size)}
					cur.space = &sp
				}
				end()
			}
			if part != "" {
				p := piece{text: part, st: s.st, width: textWidth(part, s.st, size)}
				cur.pieces = append(cur.pieces, p)
				cur.width += p.width
				open = true
			}
		}
	}
	end()
	return ws
}

// breakLines fills lines no wider than width with ws, breaking words that are wider than
// a line on their own. It returns at least one line.
func breakLines(ws []word, width float64, size float64) []line {
	var lines []line
	var cur line
	var space *piece // the space between cur and the next word
	for _, w := range ws {
		if len(cur.pieces) > 0 && space != nil {
			if cur.width+space.width+w.width > width {
				lines, cur = append(lines, cur), line{}
			} else {
				cur.add(*space)
			}
		}
		if w.width > width {
			chunks := splitWord(w.pieces, width, size)
			lines = append(lines, chunks[:len(chunks)-1]...)
			cur = chunks[len(chunks)-1]
		} else {
			cur.add(w.pieces...)
		}
		space = w.space
		if w.brk {
			lines, cur, space = append(lines, cur), line{}, nil
		}
	}
	if len(cur.pieces) > 0 || len(lines) == 0 {
		lines = append(lines, cur)
	}
	return lines
}

// splitWord breaks pieces, too wide for one line, into lines no wider than width (but
// at least one character each).
func splitWord(pieces []piece, width, size float64) []line {
	var lines []line
	var cur line
	for _, p := range pieces {
		start := 0
		w := 0.0
		for i, r := range p.text {
			rw := textWidth(string(r), p.st, size)
			if cur.width+w+rw > width && (cur.width > 0 || i > start) {
				if i > start {
					cur.add(piece{text: p.text[start:i], st: p.st, width: w})
				}
				lines, cur = append(lines, cur), line{}
				start, w = i, 0
			}
			w += rw
		}
		cur.add(piece{text: p.text[start:], st: p.st, width: w})
	}
	return append(lines, cur)
}

// naturalWidth is the width spans take with no wrapping (the widest of their hard
// lines), and minWidth the width of their widest word.
func naturalWidth(ws []word, size float64) (natural, minWidth float64) {
	for _, l := range breakLines(ws, math.Inf(1), size) {
		natural = math.Max(natural, l.width)
	}
	for _, w := range ws {
		minWidth = math.Max(minWidth, w.width)
	}
	return natural, minWidth
}

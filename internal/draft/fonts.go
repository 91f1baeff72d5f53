package draft

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gobolditalic"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/text/unicode/norm"
)

// The Go fonts are compiled into the binary, so drafts look the same on every machine.
// They cover WGL4, which includes the Romanian and Italian letters.
const (
	sansFamily = "go"
	monoFamily = "gomono"
)

// face is one embedded font.
type face struct {
	family, style string // as registered with fpdf
	ttf           []byte
	// widths holds the advance width of every character the font has, in thousandths of
	// an em, computed as fpdf computes it, so that text can be measured without fpdf.
	widths map[rune]int
}

// faces parses the fonts once per process, in the order faceOf relies on: regular,
// bold, italic, bold italic, mono.
var faces = sync.OnceValue(func() []*face {
	fs := []*face{
		{family: sansFamily, style: "", ttf: goregular.TTF},
		{family: sansFamily, style: "B", ttf: gobold.TTF},
		{family: sansFamily, style: "I", ttf: goitalic.TTF},
		{family: sansFamily, style: "BI", ttf: gobolditalic.TTF},
		{family: monoFamily, style: "", ttf: gomono.TTF},
	}
	for _, f := range fs {
		f.widths = advanceWidths(f.ttf)
	}
	return fs
})

// advanceWidths reads the width of every character in the Basic Multilingual Plane that
// ttf has a glyph for. The Go fonts are known to be valid, so a parse error is a bug.
func advanceWidths(ttf []byte) map[rune]int {
	f, err := sfnt.Parse(ttf)
	if err != nil {
		panic(fmt.Sprintf("draft: embedded font: %v", err))
	}
	var buf sfnt.Buffer
	upem := float64(f.UnitsPerEm())
	widths := map[rune]int{}
	for r := rune(1); r <= 0xFFFF; r++ {
		g, err := f.GlyphIndex(&buf, r)
		if err != nil || g == 0 {
			continue
		}
		adv, err := f.GlyphAdvance(&buf, g, fixed.I(int(f.UnitsPerEm())), font.HintingNone)
		if err != nil {
			continue
		}
		widths[r] = int(math.Round(float64(adv) / 64 * 1000 / upem))
	}
	return widths
}

// ptMM converts points to millimetres.
const ptMM = 25.4 / 72

// faceOf returns the face that prints text in st.
func faceOf(st style) *face {
	i := 0
	switch {
	case st.mono:
		i = 4
	case st.bold && st.italic:
		i = 3
	case st.italic:
		i = 2
	case st.bold:
		i = 1
	}
	return faces()[i]
}

// textWidth returns the width in millimetres of s printed in st at size points.
func textWidth(s string, st style, size float64) float64 {
	widths := faceOf(st).widths
	w := 0
	for _, r := range s {
		w += widths[r]
	}
	return float64(w) * size / 1000 * ptMM
}

// printable composes s (so that an s followed by a combining comma becomes ș) and
// replaces tabs with spaces and the characters the fonts lack with '?', so that every
// character prints and is measured correctly. All the faces have the same characters.
func printable(s string) string {
	widths := faces()[0].widths
	return strings.Map(func(r rune) rune {
		switch r {
		case '\t':
			return ' '
		case '\u00ad': // a soft hyphen: lines break only at spaces
			return -1
		}
		if _, ok := widths[r]; !ok {
			return '?'
		}
		return r
	}, norm.NFC.String(s))
}

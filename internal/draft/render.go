package draft

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// Options are the settings of a rendered PDF.
type Options struct {
	Title string // the PDF's metadata title
	// Appendix is Markdown rendered on pages of its own after the draft, such as
	// the citations a reader must check; empty for none.
	Appendix string
	// Disclosure is a line printed in every page's footer, above the page number,
	// such as the note that AI helped write the draft; empty for none. It is one or
	// two lines at the footer's size: keep it to about 200 characters.
	Disclosure string
}

// Page geometry, in millimetres.
const (
	pageWidth    = 210.0
	pageHeight   = 297.0
	marginLeft   = 25.0
	marginRight  = 20.0
	marginTop    = 20.0
	marginBottom = 22.0 // the footer sits inside it
	bodyBottom   = pageHeight - marginBottom
)

// Type sizes, in points, and spacing.
const (
	bodySize   = 11.0
	tableSize  = 10.0
	codeSize   = 9.0
	footerSize = 9.0
	// disclosureSize is the size of Options.Disclosure in the footer.
	disclosureSize = 7.0
	leading        = 1.35 // line height as a multiple of the type size
	paraGap        = 2.5  // millimetres after a paragraph
	listIndent     = 7.0  // millimetres
	quoteIndent    = 6.0  // millimetres
)

// codeGrey is the grey behind code.
const codeGrey = 238

// headingSizes are the type sizes of headings of level 1 to 4; deeper ones use the last.
var headingSizes = []float64{18, 15, 13, 11.5}

// bullets mark list items, by nesting depth.
var bullets = []string{"•", "◦", "▪"}

// epoch is the fixed creation date that keeps output byte-identical.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Render converts a Markdown draft to an A4 PDF with numbered pages, and any appendix
// after it on a new page. The same input always gives the same bytes.
func Render(markdown string, opt Options) ([]byte, error) {
	src := []byte(markdown)
	doc := markdownParser.Parser().Parse(text.NewReader(src))

	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetCreationDate(epoch)
	pdf.SetModificationDate(epoch)
	pdf.SetCatalogSort(true)
	pdf.SetTitle(printable(opt.Title), true) // fpdf panics on invalid UTF-8
	pdf.SetCreator("Lexflow", true)
	pdf.SetProducer("Lexflow", true)
	pdf.SetMargins(marginLeft, marginTop, marginRight)
	pdf.SetAutoPageBreak(false, marginBottom) // the renderer breaks pages itself
	pdf.SetCellMargin(0)
	r := &renderer{pdf: pdf, src: src, x: marginLeft, width: pageWidth - marginLeft - marginRight, fonts: map[*face]bool{}}
	pdf.AliasNbPages("{nb}")
	disclosure := printable(opt.Disclosure)
	pdf.SetFooterFunc(func() {
		if disclosure != "" {
			r.setFont(faces()[0], "", disclosureSize)
			pdf.SetTextColor(90, 90, 90)
			pdf.SetXY(marginLeft, bodyBottom+1)
			pdf.MultiCell(pageWidth-marginLeft-marginRight, disclosureSize*ptMM*leading, disclosure, "", "C", false)
		}
		r.setFont(faces()[0], "", footerSize)
		pdf.SetTextColor(90, 90, 90)
		// "N / M" with the slash at the centre; the three parts are drawn apart so that
		// text extraction keeps the spaces.
		mid, y := pageWidth/2, pageHeight-marginBottom/2-2
		pdf.SetXY(mid-20, y)
		pdf.CellFormat(18, 4, strconv.Itoa(pdf.PageNo()), "", 0, "R", false, 0, "")
		pdf.CellFormat(4, 4, "/", "", 0, "C", false, 0, "")
		pdf.CellFormat(18, 4, "{nb}", "", 0, "L", false, 0, "")
	})
	pdf.AddPage()
	r.blocks(doc)
	if opt.Appendix != "" {
		r.src = []byte(opt.Appendix)
		pdf.AddPage()
		r.blocks(markdownParser.Parser().Parse(text.NewReader(r.src)))
	}

	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		return nil, fmt.Errorf("PDF conversion failed: %w", err)
	}
	return buf.Bytes(), nil
}

// renderer draws a Markdown syntax tree onto pages, top to bottom.
type renderer struct {
	pdf      *fpdf.Fpdf
	src      []byte
	x, width float64        // the left edge and width of the current block
	quotes   []float64      // where the bars of the enclosing block quotes are drawn
	marker   *string        // a list marker to draw beside the next line
	depth    int            // list nesting
	fonts    map[*face]bool // the faces added to pdf so far
}

// setFont selects f in fpdf style st ("U" underlines) at size points, first adding f to
// the PDF if this is its first use: fpdf embeds every font it is given.
func (r *renderer) setFont(f *face, st string, size float64) {
	if !r.fonts[f] {
		r.pdf.AddUTF8FontFromBytes(f.family, f.style, f.ttf)
		r.fonts[f] = true
	}
	r.pdf.SetFont(f.family, f.style+st, size)
}

// y returns the top of the free space on the page.
func (r *renderer) y() float64 { return r.pdf.GetY() }

// room starts a new page unless h millimetres fit on this one.
func (r *renderer) room(h float64) {
	if r.y()+h > bodyBottom && r.y() > marginTop {
		r.pdf.AddPage()
	}
}

// space leaves h millimetres of vertical space, continuing any quote bars through it.
func (r *renderer) space(h float64) {
	if r.y()+h > bodyBottom {
		r.pdf.AddPage()
		return
	}
	r.bars(r.y(), h)
	r.pdf.SetY(r.y() + h)
}

// bars draws the bars of the enclosing block quotes beside h millimetres from y.
func (r *renderer) bars(y, h float64) {
	if len(r.quotes) == 0 {
		return
	}
	r.pdf.SetDrawColor(190, 190, 190)
	r.pdf.SetLineWidth(0.8)
	for _, x := range r.quotes {
		r.pdf.Line(x, y, x, y+h)
	}
}

// blocks renders the block children of n.
func (r *renderer) blocks(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.block(c)
	}
}

// block draws one block node of the document.
func (r *renderer) block(n ast.Node) {
	switch n := n.(type) {
	case *ast.Heading:
		size := headingSizes[min(n.Level, len(headingSizes))-1]
		lh := size * ptMM * leading
		if r.y() > marginTop {
			r.space(lh * 0.6)
		}
		r.room(lh*2 + bodySize*ptMM*leading*2) // keep a heading with what follows
		align := "L"
		if n.Level == 1 {
			align = "C"
		}
		r.flow(r.spans(n, style{bold: true}, nil), size, align)
		r.space(lh * 0.3)
	case *ast.Paragraph:
		r.flow(r.spans(n, style{}, nil), bodySize, "L")
		r.space(paraGap)
	case *ast.TextBlock: // a tight list item's text
		r.flow(r.spans(n, style{}, nil), bodySize, "L")
	case *ast.List:
		r.list(n)
		if _, nested := n.Parent().(*ast.ListItem); !nested {
			r.space(paraGap)
		}
	case *ast.Blockquote:
		r.quotes = append(r.quotes, r.x+1)
		r.x, r.width = r.x+quoteIndent, r.width-quoteIndent
		r.blocks(n)
		r.x, r.width = r.x-quoteIndent, r.width+quoteIndent
		r.quotes = r.quotes[:len(r.quotes)-1]
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		r.code(n)
		r.space(paraGap)
	case *ast.ThematicBreak:
		r.room(6)
		y := r.y() + 3
		r.pdf.SetDrawColor(150, 150, 150)
		r.pdf.SetLineWidth(0.3)
		r.pdf.Line(r.x, y, r.x+r.width, y)
		r.space(6)
	case *east.Table:
		r.table(n)
		r.space(paraGap)
	case *ast.HTMLBlock:
		// Raw HTML is left out, as the HTML renderer leaves it out.
	default:
		r.blocks(n)
	}
}

// list renders the items of a bulleted or numbered list, each marked beside its first
// line.
func (r *renderer) list(n *ast.List) {
	indent := listIndent
	if n.IsOrdered() {
		last := fmt.Sprintf("%d.", n.Start+n.ChildCount()-1)
		indent = max(indent, textWidth(last, style{}, bodySize)+2.5)
	}
	r.x, r.width = r.x+indent, r.width-indent
	r.depth++
	i := 0
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		m := bullets[(r.depth-1)%len(bullets)]
		if n.IsOrdered() {
			m = fmt.Sprintf("%d.", n.Start+i)
		}
		r.marker = &m
		r.blocks(item)
		if r.marker != nil { // an empty item
			r.flow(nil, bodySize, "L")
		}
		i++
	}
	r.depth--
	r.x, r.width = r.x-indent, r.width+indent
}

// flow lays spans out in the current block and draws them line by line.
func (r *renderer) flow(spans []span, size float64, align string) {
	lh := size * ptMM * leading
	for _, l := range breakLines(words(spans, size), r.width, size) {
		r.room(lh)
		y := r.y()
		if r.marker != nil {
			m := piece{text: *r.marker, width: textWidth(*r.marker, style{}, bodySize)}
			r.draw(line{pieces: []piece{m}, width: m.width}, r.x-m.width-2, y, m.width, lh, bodySize, "L")
			r.marker = nil
		}
		r.draw(l, r.x, y, r.width, lh, size, align)
		r.bars(y, lh)
		r.pdf.SetY(y + lh)
	}
}

// draw prints l in a box of width w and height lh whose top left corner is (x, y).
func (r *renderer) draw(l line, x, y, w, lh, size float64, align string) {
	switch align {
	case "C":
		x += (w - l.width) / 2
	case "R":
		x += w - l.width
	}
	for _, p := range l.pieces {
		underline := ""
		if p.st.link != "" {
			underline = "U"
			r.pdf.SetTextColor(20, 70, 160)
		} else if len(r.quotes) > 0 {
			r.pdf.SetTextColor(80, 80, 80)
		} else {
			r.pdf.SetTextColor(0, 0, 0)
		}
		r.setFont(faceOf(p.st), underline, size)
		r.pdf.SetFillColor(codeGrey, codeGrey, codeGrey)
		r.pdf.SetXY(x, y)
		r.pdf.CellFormat(p.width, lh, p.text, "", 0, "L", p.st.mono, 0, p.st.link)
		if p.st.strike {
			r.pdf.SetDrawColor(0, 0, 0)
			r.pdf.SetLineWidth(size / 40 * ptMM)
			r.pdf.Line(x, y+lh/2, x+p.width, y+lh/2)
		}
		x += p.width
	}
}

// code draws a code block in monospace on a grey band, wrapping long lines.
func (r *renderer) code(n ast.Node) {
	const pad = 1.5
	st := style{mono: true}
	lh := codeSize * ptMM * leading
	var lines []line
	segs := n.Lines()
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		s := strings.TrimRight(string(seg.Value(r.src)), "\n")
		s = printable(strings.ReplaceAll(s, "\t", "    "))
		p := piece{text: s, st: st, width: textWidth(s, st, codeSize)}
		lines = append(lines, breakLines([]word{{pieces: []piece{p}, width: p.width}}, r.width-2*pad, codeSize)...)
	}
	r.room(lh + 2*pad)
	r.band(pad)
	for _, l := range lines {
		r.room(lh)
		y := r.y()
		r.pdf.SetFillColor(codeGrey, codeGrey, codeGrey)
		r.pdf.Rect(r.x, y, r.width, lh, "F")
		r.draw(l, r.x+pad, y, r.width-2*pad, lh, codeSize, "L")
		r.bars(y, lh)
		r.pdf.SetY(y + lh)
	}
	r.band(pad)
}

// band draws h millimetres of a code block's grey band.
func (r *renderer) band(h float64) {
	r.pdf.SetFillColor(codeGrey, codeGrey, codeGrey)
	r.pdf.Rect(r.x, r.y(), r.width, h, "F")
	r.bars(r.y(), h)
	r.pdf.SetY(r.y() + h)
}

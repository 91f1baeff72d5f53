package draft

import (
	"math"

	east "github.com/yuin/goldmark/extension/ast"
)

// Table cell padding, in millimetres.
const (
	cellPadX = 1.5
	cellPadY = 1.0
)

// row is a table row laid out in its columns: each cell's lines.
type row struct {
	cells  [][]line
	header bool
}

// height is the number of lines in the row's tallest cell.
func (rw row) height() int {
	n := 1
	for _, c := range rw.cells {
		n = max(n, len(c))
	}
	return n
}

// size is the row's height in millimetres when its lines are lh apart.
func (rw row) size(lh float64) float64 {
	return float64(rw.height())*lh + 2*cellPadY
}

// table draws a GFM table: column widths follow the content and fill the block, the
// header row is bold and repeated on every page the table reaches, and a row moves to
// the next page rather than split unless it is taller than a page.
func (r *renderer) table(t *east.Table) {
	var cells [][][]word // rows, columns, words
	var header []bool
	for rn := t.FirstChild(); rn != nil; rn = rn.NextSibling() {
		_, isHeader := rn.(*east.TableHeader)
		var rowWords [][]word
		for cn := rn.FirstChild(); cn != nil; cn = cn.NextSibling() {
			rowWords = append(rowWords, words(r.spans(cn, style{bold: isHeader}, nil), tableSize))
		}
		cells = append(cells, rowWords)
		header = append(header, isHeader)
	}
	cols := len(t.Alignments)
	widths := r.columnWidths(cells, cols)

	rows := make([]row, len(cells))
	for i, rowWords := range cells {
		rows[i].header = header[i]
		for c := range cols {
			var ws []word
			if c < len(rowWords) {
				ws = rowWords[c]
			}
			rows[i].cells = append(rows[i].cells, breakLines(ws, widths[c]-2*cellPadX, tableSize))
		}
	}

	lh := tableSize * ptMM * leading
	var head *row
	if len(rows) > 1 && rows[0].header {
		r.room(rows[0].size(lh) + rows[1].size(lh)) // keep the header with a row
		// A header taller than a third of a page is not worth repeating.
		if rows[0].size(lh) < (bodyBottom-marginTop)/3 {
			head = &rows[0]
		}
	}
	for _, rw := range rows {
		r.row(rw, t.Alignments, widths, lh, head)
	}
}

// row draws one table row, moving it to a new page (after the repeated header) if it
// does not fit, and splitting it only if it would not fit on a page of its own.
func (r *renderer) row(rw row, align []east.Alignment, widths []float64, lh float64, head *row) {
	headH := 0.0
	if head != nil && !rw.header {
		headH = head.size(lh)
	}
	newPage := func() {
		r.pdf.AddPage()
		if head != nil && !rw.header {
			r.drawRow(*head, align, widths, lh, 0, head.height())
		}
	}
	n := rw.height()
	if r.y()+rw.size(lh) > bodyBottom && rw.size(lh) <= bodyBottom-marginTop-headH {
		newPage()
	}
	for from := 0; from < n; {
		fit := int((bodyBottom - r.y() - 2*cellPadY) / lh)
		if fit < 1 {
			newPage()
			continue
		}
		to := min(n, from+fit)
		r.drawRow(rw, align, widths, lh, from, to)
		from = to
		if from < n {
			newPage()
		}
	}
}

// headerGrey fills a table's header cells.
const headerGrey = 230

// drawRow draws lines from to to of every cell of rw, with borders, at the current y.
func (r *renderer) drawRow(rw row, align []east.Alignment, widths []float64, lh float64, from, to int) {
	y := r.y()
	h := float64(to-from)*lh + 2*cellPadY
	x := r.x
	r.pdf.SetDrawColor(120, 120, 120)
	r.pdf.SetLineWidth(0.2)
	for c, cell := range rw.cells {
		box := "D"
		if rw.header {
			box = "FD"
			r.pdf.SetFillColor(headerGrey, headerGrey, headerGrey) // draw sets the code grey
		}
		r.pdf.Rect(x, y, widths[c], h, box)
		a := "L"
		switch align[c] {
		case east.AlignRight:
			a = "R"
		case east.AlignCenter:
			a = "C"
		}
		for i := from; i < min(to, len(cell)); i++ {
			r.draw(cell[i], x+cellPadX, y+cellPadY+float64(i-from)*lh, widths[c]-2*cellPadX, lh, tableSize, a)
		}
		x += widths[c]
	}
	r.bars(y, h)
	r.pdf.SetY(y + h)
}

// columnWidths shares the block's width among cols columns: each column gets at least
// its widest word (if they all fit) and the rest goes where the text is longest, as a
// browser lays out an automatic table.
func (r *renderer) columnWidths(cells [][][]word, cols int) []float64 {
	natural := make([]float64, cols)
	minimum := make([]float64, cols)
	for c := range cols {
		natural[c] = 2*cellPadX + 0.01
		minimum[c] = natural[c]
	}
	for _, rowWords := range cells {
		for c, ws := range rowWords[:min(cols, len(rowWords))] {
			nat, mn := naturalWidth(ws, tableSize)
			natural[c] = math.Max(natural[c], nat+2*cellPadX+0.01)
			minimum[c] = math.Max(minimum[c], mn+2*cellPadX+0.01)
		}
	}
	sumNat, sumMin := sum(natural), sum(minimum)
	widths := make([]float64, cols)
	for c := range widths {
		switch {
		case sumNat <= r.width: // everything fits on one line: stretch to the block
			widths[c] = natural[c] * r.width / sumNat
		case sumMin >= r.width: // even the widest words do not fit: shrink them alike
			widths[c] = minimum[c] * r.width / sumMin
		default:
			widths[c] = minimum[c] + (r.width-sumMin)*(natural[c]-minimum[c])/(sumNat-sumMin)
		}
	}
	return widths
}

// sum adds xs up.
func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

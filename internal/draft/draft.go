// Package draft turns Markdown legal drafts into documents: it fills in their party
// placeholders ({{party0.lastName}}) and renders them to PDF in pure Go, with embedded
// fonts that print Romanian and Italian text. HTML gives the same draft as a web page,
// for comparison with an HTML-to-PDF converter.
package draft

import (
	"bytes"
	"html"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// markdownParser reads CommonMark with GitHub's tables and strikethrough. Raw HTML in a
// draft is left out of both the PDF and the HTML.
var markdownParser = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))

// htmlStyle lays the HTML out like the PDF: A4, the same margins and type sizes, and
// "N / M" page numbers at the foot of every page.
const htmlStyle = `@page {
  size: A4;
  margin: 20mm 20mm 22mm 25mm;
  @bottom-center { content: counter(page) " / " counter(pages); font-size: 9pt; color: #5a5a5a; }
}
body { font-family: "Go", sans-serif; font-size: 11pt; line-height: 1.35; }
h1 { font-size: 18pt; text-align: center; }
h2 { font-size: 15pt; }
h3 { font-size: 13pt; }
h4, h5, h6 { font-size: 11.5pt; }
h1, h2, h3, h4, h5, h6 { break-after: avoid; }
table { border-collapse: collapse; width: 100%; font-size: 10pt; }
th, td { border: 0.2mm solid #787878; padding: 1mm 1.5mm; vertical-align: top; }
th { background: #e6e6e6; }
tr { break-inside: avoid; }
code, pre { font-family: "Go Mono", monospace; background: #eee; }
pre { font-size: 9pt; padding: 1.5mm; white-space: pre-wrap; }
blockquote { margin: 0 0 0 1mm; padding-left: 5mm; border-left: 0.8mm solid #bebebe; color: #505050; }
a { color: #1446a0; }
`

// HTML renders markdown as a standalone HTML document, titled by its first heading, that
// prints like Render's PDF.
func HTML(markdown string) string {
	src := []byte(markdown)
	doc := markdownParser.Parser().Parse(text.NewReader(src))
	var body bytes.Buffer
	if err := markdownParser.Renderer().Render(&body, src, doc); err != nil {
		// goldmark's HTML renderer fails only if writing fails, and a bytes.Buffer does not.
		panic(err)
	}
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>")
	b.WriteString(html.EscapeString(firstHeading(doc, src)))
	b.WriteString("</title>\n<style>\n")
	b.WriteString(htmlStyle)
	b.WriteString("</style>\n</head>\n<body>\n")
	b.Write(body.Bytes())
	b.WriteString("</body>\n</html>\n")
	return b.String()
}

// firstHeading returns the text of the document's first heading, or "".
func firstHeading(doc ast.Node, src []byte) string {
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			var t strings.Builder
			for _, s := range (&renderer{src: src}).spans(h, style{}, nil) {
				t.WriteString(s.text)
			}
			return t.String()
		}
	}
	return ""
}

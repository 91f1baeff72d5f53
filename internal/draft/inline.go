package draft

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// spans appends the inline content of n, printed in st, to out.
func (r *renderer) spans(n ast.Node, st style, out []span) []span {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			v := c.Segment.Value(r.src)
			if !c.IsRaw() {
				v = unescape(v)
			}
			out = append(out, span{printable(string(v)), st})
			if c.HardLineBreak() {
				out = append(out, span{"\n", st})
			} else if c.SoftLineBreak() {
				out = append(out, span{" ", st})
			}
		case *ast.String:
			out = append(out, span{printable(string(c.Value)), st})
		case *ast.CodeSpan:
			var code strings.Builder
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if t, ok := t.(*ast.Text); ok {
					code.Write(t.Segment.Value(r.src))
				}
			}
			mono := st
			mono.mono = true
			out = append(out, span{printable(strings.ReplaceAll(code.String(), "\n", " ")), mono})
		case *ast.Emphasis:
			em := st
			if c.Level >= 2 {
				em.bold = true
			} else {
				em.italic = true
			}
			out = r.spans(c, em, out)
		case *ast.Link:
			link := st
			link.link = linkTarget(string(c.Destination))
			out = r.spans(c, link, out)
		case *ast.AutoLink:
			link := st
			target := string(c.URL(r.src))
			if c.AutoLinkType == ast.AutoLinkEmail {
				target = "mailto:" + target
			}
			link.link = linkTarget(target)
			out = append(out, span{printable(string(c.Label(r.src))), link})
		case *east.Strikethrough:
			strike := st
			strike.strike = true
			out = r.spans(c, strike, out)
		case *ast.RawHTML:
			// Left out, as the HTML renderer leaves it out.
		default: // an image's alt text, or anything else with inline children
			out = r.spans(c, st, out)
		}
	}
	return out
}

// unescape resolves backslash escapes and entity references in Markdown text, in one
// pass as goldmark's HTML writer does, so that "\&amp;" stays "&amp;".
func unescape(v []byte) []byte {
	if bytes.IndexByte(v, '\\') < 0 && bytes.IndexByte(v, '&') < 0 {
		return v
	}
	var out []byte
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '\\' && i+1 < len(v) && util.IsPunct(v[i+1]):
			out = append(out, v[i+1])
			i++
		case c == '&':
			end := bytes.IndexByte(v[i:], ';')
			if end < 0 || end > 32 {
				out = append(out, c)
				continue
			}
			ref := v[i : i+end+1]
			resolved := util.ResolveEntityNames(util.ResolveNumericReferences(ref))
			out = append(out, resolved...)
			i += end
		default:
			out = append(out, c)
		}
	}
	return out
}

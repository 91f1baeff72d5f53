// Package usagecheck checks, for a command's tests, that its usage text and package
// documentation list exactly the subcommands its main function dispatches on.
package usagecheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"testing"
)

// Check fails t unless the commands that mainFile's switch on os.Args[1] has a case for
// are those usage lists ("  name ...") and those the file's package documentation
// lists ("  - name ..."), no more and no fewer.
func Check(t *testing.T, mainFile, usage string) {
	t.Helper()
	dispatched, doc := dispatch(t, mainFile)
	if len(dispatched) == 0 {
		t.Fatalf("found no switch on os.Args[1] in %s", mainFile)
	}
	for name, listed := range map[string][]string{
		"usage":   listed(regexp.MustCompile(`(?m)^  ([a-z][a-z-]*) `), usage),
		"package": listed(regexp.MustCompile(`(?m)^  - ([a-z][a-z-]*) `), doc),
	} {
		if !slices.Equal(listed, dispatched) {
			t.Errorf("the %s documentation lists %q; main dispatches on %q", name, listed, dispatched)
		}
	}
}

// dispatch is the sorted commands (not flags) that file's switch on os.Args[1] has a
// case for, and the file's package documentation.
func dispatch(t *testing.T, file string) ([]string, string) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	ast.Inspect(f, func(n ast.Node) bool {
		sw, ok := n.(*ast.SwitchStmt)
		if !ok || !isArgs1(sw.Tag) {
			return true
		}
		for _, c := range sw.Body.List {
			for _, e := range c.(*ast.CaseClause).List {
				if lit, ok := e.(*ast.BasicLit); ok {
					if s, _ := strconv.Unquote(lit.Value); s != "" && s[0] != '-' {
						cmds = append(cmds, s)
					}
				}
			}
		}
		return false
	})
	slices.Sort(cmds)
	return cmds, f.Doc.Text()
}

// isArgs1 reports whether e is os.Args[1].
func isArgs1(e ast.Expr) bool {
	ix, ok := e.(*ast.IndexExpr)
	if !ok {
		return false
	}
	sel, ok := ix.X.(*ast.SelectorExpr)
	lit, isLit := ix.Index.(*ast.BasicLit)
	return ok && isLit && sel.Sel.Name == "Args" && lit.Value == "1"
}

// listed is the sorted names that re's first group matches in text.
func listed(re *regexp.Regexp, text string) []string {
	var names []string
	for _, m := range re.FindAllStringSubmatch(text, -1) {
		names = append(names, m[1])
	}
	slices.Sort(names)
	return names
}

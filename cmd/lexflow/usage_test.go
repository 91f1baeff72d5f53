package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"testing"
)

// TestUsageListsEveryCommand: the commands main dispatches on are those the usage text
// lists and those the package documentation lists, no more and no fewer.
func TestUsageListsEveryCommand(t *testing.T) {
	dispatched, doc := dispatch(t, "main.go")
	if len(dispatched) == 0 {
		t.Fatal("found no switch on os.Args[1] in main.go")
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

package markdown

import (
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// numberTransformer gives table cells that hold a number the class "num", so the stylesheet
// can right-align them and the digits of a column line up. A header cell gets it too when
// every filled cell below it is a number, so the heading sits over its figures.
type numberTransformer struct{}

// Transform implements parser.ASTTransformer.
func (numberTransformer) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	source := reader.Source()
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := n.(*extast.Table); ok && entering {
			markNumbers(t, source)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
}

// markNumbers sets class="num" on the numeric cells of t. Columns the author aligned left or
// centre are left alone: the class would override their choice.
func markNumbers(t *extast.Table, source []byte) {
	numeric := make([]int, len(t.Alignments)) // per column: numbers, or -1 once text is seen
	var header ast.Node
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		if row.Kind() == extast.KindTableHeader {
			header = row
			continue
		}
		col := 0
		for cell := row.FirstChild(); cell != nil; cell, col = cell.NextSibling(), col+1 {
			if col >= len(numeric) || !alignable(t, col) {
				continue
			}
			s := strings.TrimSpace(cellText(cell, source))
			switch {
			case isNumber(s):
				cell.SetAttributeString("class", "num")
				if numeric[col] >= 0 {
					numeric[col]++
				}
			case s != "":
				numeric[col] = -1
			}
		}
	}
	if header == nil {
		return
	}
	col := 0
	for cell := header.FirstChild(); cell != nil; cell, col = cell.NextSibling(), col+1 {
		if col < len(numeric) && numeric[col] > 0 {
			cell.SetAttributeString("class", "num")
		}
	}
}

// alignable reports whether column col may be right-aligned.
func alignable(t *extast.Table, col int) bool {
	a := t.Alignments[col]
	return a == extast.AlignNone || a == extast.AlignRight
}

// cellText returns the text a reader sees in a cell, emphasis and code spans included.
func cellText(n ast.Node, source []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Text:
			b.Write(n.Segment.Value(source))
		case *ast.String:
			b.Write(n.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// number matches what analysts put in a table as a figure: a sign (ASCII or U+2212), a
// currency symbol, digits with comma thousands separators, decimals, an exponent as pandas
// prints it, and a percent sign, currency or k/M/B multiplier after. Accounting negatives
// come in parentheses. A comma always separates thousands, so decimal commas ("1,5") are
// not figures.
var number = regexp.MustCompile(`^\(?[-+−±]?[$€£¥₹]?\s?` +
	`((\d{1,3}(,\d{3})+|\d+)(\.\d+)?|\.\d+)([eE][-+]?\d+)?` +
	`\s?(%|[$€£¥₹]|[kKMB]|bn)?\)?$`)

// isNumber reports whether s is a figure. The regular expression alone would accept
// unbalanced parentheses.
func isNumber(s string) bool {
	return number.MatchString(s) && strings.HasPrefix(s, "(") == strings.HasSuffix(s, ")")
}

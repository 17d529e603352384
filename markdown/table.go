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
// can right-align them and the digits of a column line up. In a column of numbers the
// header and placeholders such as "n/a" get it too, so they sit over and among the figures.
type numberTransformer struct{}

// Transform implements parser.ASTTransformer.
func (numberTransformer) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	source := reader.Source()
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := n.(*extast.Table); ok && entering {
			for col, cells := range columns(t) {
				if alignable(t, col) {
					markColumn(cells, source)
				}
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
}

// columns returns the cells of t by column, header first. Rows of a table still streaming
// may be short.
func columns(t *extast.Table) [][]ast.Node {
	cols := make([][]ast.Node, len(t.Alignments))
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		col := 0
		for cell := row.FirstChild(); cell != nil && col < len(cols); cell = cell.NextSibling() {
			cols[col] = append(cols[col], cell)
			col++
		}
	}
	return cols
}

// markColumn sets class="num" on the numeric cells of a column, given header first, and on
// its header and placeholders if every body cell is a number or a placeholder.
func markColumn(cells []ast.Node, source []byte) {
	if len(cells) < 2 {
		return
	}
	var numbers, placeholders []ast.Node
	allNumeric := true
	for _, cell := range cells[1:] {
		s := strings.TrimSpace(cellText(cell, source))
		switch {
		case isNumber(s):
			numbers = append(numbers, cell)
		case isPlaceholder(s):
			placeholders = append(placeholders, cell)
		default:
			allNumeric = false
		}
	}
	for _, cell := range numbers {
		cell.SetAttributeString("class", "num")
	}
	if allNumeric && len(numbers) > 0 {
		cells[0].SetAttributeString("class", "num")
		for _, cell := range placeholders {
			if cell.HasChildren() {
				cell.SetAttributeString("class", "num")
			}
		}
	}
}

// alignable reports whether column col may be right-aligned.
func alignable(t *extast.Table, col int) bool {
	a := t.Alignments[col]
	return a == extast.AlignNone || a == extast.AlignRight
}

// cellText returns the text a reader sees in a cell, emphasis and code spans included. A
// <br> counts as a space, so "1<br>2" is not the number 12.
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
		case *ast.RawHTML:
			b.WriteByte(' ')
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

// isPlaceholder reports whether s stands for a missing value in a column of numbers.
func isPlaceholder(s string) bool {
	switch strings.ToLower(s) {
	case "", "-", "–", "—", "n/a", "na", "nan", "none", "null", "nat", "…", "...":
		return true
	}
	return false
}

// isNumber reports whether s is a figure. The regular expression alone would accept
// unbalanced parentheses.
func isNumber(s string) bool {
	return number.MatchString(s) && strings.HasPrefix(s, "(") == strings.HasSuffix(s, ")")
}

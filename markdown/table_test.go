package markdown

import (
	"strings"
	"testing"
)

func TestIsNumber(t *testing.T) {
	numbers := []string{
		"0", "42", "-7", "+8.4%", "−2.1%", "3.14", ".5", "1,234", "12,345,678.90", "$1,284,330.20",
		"-$12.50", "€ 12", "12 €", "£3", "¥1000", "₹2,500", "100%", "12.5 %", "(1,234)", "(0.4%)",
		"1.2e-05", "6.02E23", "1.2M", "3k", "4.5bn", "±0.3",
	}
	for _, s := range numbers {
		if !isNumber(s) {
			t.Errorf("isNumber(%q) = false, want true", s)
		}
	}
	words := []string{
		"", "-", "%", "$", "e5", "n/a", "NaN", "2024-01-05", "12:30", "1.2.3", "12,34", "1,2345",
		"(12", "12)", "North America", "v2", "#1", "3 ms", "1/2", "12 345",
	}
	for _, s := range words {
		if isNumber(s) {
			t.Errorf("isNumber(%q) = true, want false", s)
		}
	}
}

func TestRender_tableNumbers(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // substrings of the output, in order
	}{
		{"numeric column and its header",
			"| Region | Revenue |\n|---|---|\n| North | $1,200.50 |\n| South | 980 |",
			[]string{"<th>Region</th>", `<th class="num">Revenue</th>`, "<td>North</td>",
				`<td class="num">$1,200.50</td>`, `<td class="num">980</td>`}},
		{"explicit alignment kept",
			"| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |",
			[]string{`<th align="left">a</th>`, `<th align="center">b</th>`, `<th align="right" class="num">c</th>`,
				`<td align="left">1</td>`, `<td align="center">2</td>`, `<td align="right" class="num">3</td>`}},
		{"text in the column leaves the header alone",
			"| Change |\n|---|\n| +8% |\n| new |",
			[]string{"<th>Change</th>", `<td class="num">+8%</td>`, "<td>new</td>"}},
		{"placeholders neither break a column nor stand out",
			"| x |\n|---|\n| 1.5 |\n| n/a |\n| — |\n|  |",
			[]string{`<th class="num">x</th>`, `<td class="num">1.5</td>`, `<td class="num">n/a</td>`, `<td class="num">—</td>`}},
		{"emphasis and code spans",
			"| n |\n|---|\n| **12** |\n| `7` |",
			[]string{`<th class="num">n</th>`, `<td class="num"><strong>12</strong></td>`, `<td class="num"><code>7</code></td>`}},
		{"a line break is not a number",
			"| a |\n|---|\n| 1<br>2 |", []string{"<th>a</th>", "<td>1<br>2</td>"}},
		{"numbers outside tables",
			"12 and 13", []string{"<p>12 and 13</p>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Render(tt.src)
			checkHTML(t, got)
			rest := got
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("Render(%q) =\n%s\nwant, in order, %q", tt.src, got, w)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

package markdown_test

import (
	"fmt"

	"github.com/analyst-workbench/workbench/markdown"
)

func ExampleOptions_Render() {
	// The app knows which container files it saved, and under which artifact ID.
	artifacts := map[string]string{"chart.png": "a1"}
	opts := markdown.Options{RewriteSandboxLink: func(name string) (string, bool) {
		id, ok := artifacts[name]
		return "/artifacts/" + id, ok
	}}
	fmt.Print(opts.Render("See [the chart](sandbox:/mnt/data/chart.png) and [the CSV](sandbox:/mnt/data/gone.csv).\n\n" +
		"| Region | Revenue |\n|---|---|\n| North | $1,200 |\n"))
	// Output:
	// <p>See <a href="/artifacts/a1">the chart</a> and the CSV.</p>
	// <table>
	// <thead>
	// <tr>
	// <th>Region</th>
	// <th class="num">Revenue</th>
	// </tr>
	// </thead>
	// <tbody>
	// <tr>
	// <td>North</td>
	// <td class="num">$1,200</td>
	// </tr>
	// </tbody>
	// </table>
}

func ExampleHighlight() {
	fmt.Println(markdown.Highlight("print(42)\n", "python"))
	// Output:
	// <pre class="chroma"><code><span class="line"><span class="cl"><span class="nb">print</span><span class="p">(</span><span class="mi">42</span><span class="p">)</span>
	// </span></span></code></pre>
}

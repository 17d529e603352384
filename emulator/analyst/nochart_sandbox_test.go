package analyst

import (
	"testing"
)

// TestBlankChartsAreNeverSaved draws charts with nothing in them, as a filter that leaves no
// rows or a column of missing values would, and one that fails half-way: none may be saved
// as a file or left open for the kernel to show.
func TestBlankChartsAreNeverSaved(t *testing.T) {
	k := newKernel(t, []string{"sales.csv"})
	k.exec(profileCode([]string{"sales.csv"}, ""))
	blank := map[string]string{
		"line":    "fig, ax = plt.subplots()\nax.plot([], [])\n_save_chart(fig, 'blank_line.png')",
		"nan":     "fig, ax = plt.subplots()\nax.plot([1, 2], [float('nan')] * 2)\n_save_chart(fig, 'blank_nan.png')",
		"bar":     "fig, ax = plt.subplots()\nax.bar([], [])\n_save_chart(fig, 'blank_bar.png')",
		"zeros":   "fig, ax = plt.subplots()\nax.barh(['a', 'b'], [0, 0])\n_save_chart(fig, 'blank_zeros.png')",
		"scatter": "fig, ax = plt.subplots()\nax.scatter([], [])\n_save_chart(fig, 'blank_scatter.png')",
		"empty":   "fig, ax = plt.subplots()\n_save_chart(fig, 'blank_axes.png')",
	}
	for name, code := range blank {
		c := k.exec(code)
		if c.Error != nil || len(c.Files) > 0 || k.figs[code] > 0 || !hasResult(c, "nochart") {
			t.Errorf("%s: files %v, %d figures shown, error %v, reports %+v", name, c.Files, k.figs[code], c.Error, c.Reports)
		}
	}
	failing := closeFailedCharts("fig, ax = plt.subplots()\nax.plot([1, 2], [3, 4])\nframes['nope']\n_save_chart(fig, 'half.png')")
	if c := k.exec(failing); c.Error == nil || len(c.Files) > 0 || k.figs[failing] > 0 {
		t.Errorf("a failing chart: error %v, files %v, %d figures shown", c.Error, c.Files, k.figs[failing])
	}
	drawn := "fig, ax = plt.subplots()\nax.bar(['a'], [3])\n_save_chart(fig, 'drawn.png')"
	if c := k.exec(drawn); len(c.Files) != 2 || c.Files[0] != "drawn.png" || k.figs[drawn] != 1 { // the PNG and its .vl.json
		t.Errorf("a real chart: files %v, %d figures", c.Files, k.figs[drawn])
	}
}

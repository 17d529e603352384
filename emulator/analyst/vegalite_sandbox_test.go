package analyst

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// vlSpec is the part of a Vega-Lite spec the tests read.
type vlSpec struct {
	Title    json.RawMessage      `json:"title"`
	Mark     json.RawMessage      `json:"mark"`
	Data     vlData               `json:"data"`
	Encoding map[string]vlChannel `json:"encoding"`
	Params   []struct {
		Name   string `json:"name"`
		Bind   any    `json:"bind"`
		Select struct {
			Encodings []string `json:"encodings"`
		} `json:"select"`
	} `json:"params"`
	Layer     []vlSpec      `json:"layer"`
	Transform []vlTransform `json:"transform"`
}

// vlTransform is a transform; the tests read only a filter by a param.
type vlTransform struct {
	Filter struct {
		Param string `json:"param"`
	} `json:"filter"`
}

// zoomFiltered reports whether every part of the spec that holds data
// keeps only the points inside the zoom, so that y fits what is in view.
func (s vlSpec) zoomFiltered() bool {
	byZoom := func(t vlTransform) bool { return t.Filter.Param == "zoom" }
	if len(s.Data.Values) > 0 && !slices.ContainsFunc(s.Transform, byZoom) {
		return false
	}
	for _, l := range s.Layer {
		if !l.zoomFiltered() {
			return false
		}
	}
	return true
}

// vlChannel is one encoding channel; a list (the tooltip's fields) reads as empty.
type vlChannel struct {
	Field string          `json:"field"`
	Type  string          `json:"type"`
	Title *string         `json:"title"`
	Sort  json.RawMessage `json:"sort"`
}

func (c *vlChannel) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '[' {
		return nil
	}
	type plain vlChannel
	return json.Unmarshal(b, (*plain)(c))
}

type vlData struct {
	Values []map[string]any `json:"values"`
}

// markType is the spec's mark, or each layer's.
func (s vlSpec) markType() string {
	if len(s.Layer) > 0 {
		var ms []string
		for _, l := range s.Layer {
			ms = append(ms, l.markType())
		}
		return strings.Join(ms, "+")
	}
	var m struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(s.Mark, &m) != nil || m.Type == "" {
		_ = json.Unmarshal(s.Mark, &m.Type)
	}
	return m.Type
}

// values are the data rows of the spec and its layers.
func (s vlSpec) values() []map[string]any {
	vs := s.Data.Values
	for _, l := range s.Layer {
		vs = append(vs, l.values()...)
	}
	return vs
}

// params lists the spec's selections by name, with the first layer's.
func (s vlSpec) params() map[string][]string {
	out := map[string][]string{}
	for _, p := range s.Params {
		out[p.Name] = p.Select.Encodings
	}
	for _, l := range s.Layer {
		for k, v := range l.params() {
			out[k] = v
		}
	}
	return out
}

// titleText is the spec's title, without a subtitle.
func (s vlSpec) titleText() (title string, subtitle []string) {
	if json.Unmarshal(s.Title, &title) == nil {
		return title, nil
	}
	var t struct {
		Text     string   `json:"text"`
		Subtitle []string `json:"subtitle"`
	}
	_ = json.Unmarshal(s.Title, &t)
	return t.Text, t.Subtitle
}

// chartOf asks q, runs the plan's cells and returns the chart's spec (nil when none was
// written) and what the figure drew: its title and axis labels and the number of points the
// plotted data holds, by count (a Python expression over the cell's variables).
func chartOf(t *testing.T, k *kernel, p *Profile, q, count string) (spec *vlSpec, drawn []any) {
	t.Helper()
	pl := makePlan(q, nil, p)
	var png, twin string
	for _, code := range pl.Cells {
		c := k.exec(code)
		if c.Error != nil {
			t.Fatalf("%q raised %s: %s\n%s", q, c.Error.Name, c.Error.Value, code)
		}
		for _, f := range c.Files {
			switch {
			case strings.HasSuffix(f, ".vl.json"):
				twin = f
			case strings.HasSuffix(f, ".png"):
				png = f
			}
		}
	}
	if png == "" {
		t.Fatalf("%q drew no chart", q)
	}
	probe := k.exec(fmt.Sprintf("# %s\nimport json\nprint(json.dumps([ax.get_title(), ax.get_xlabel(), ax.get_ylabel(), int(%s)]))", q, count))
	if probe.Error != nil {
		t.Fatalf("%q: probe: %s %s", q, probe.Error.Name, probe.Error.Value)
	}
	if err := json.Unmarshal([]byte(probe.Stdout), &drawn); err != nil {
		t.Fatalf("%q: probe output %q: %v", q, probe.Stdout, err)
	}
	if twin == "" {
		return nil, drawn
	}
	if twin != strings.TrimSuffix(png, ".png")+".vl.json" {
		t.Errorf("%q: spec %s is no twin of %s", q, twin, png)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := k.sess.GetFile(ctx, twin)
	if err != nil {
		t.Fatalf("%q: get %s: %v", q, twin, err)
	}
	spec = &vlSpec{}
	if err := json.Unmarshal(b, spec); err != nil {
		t.Fatalf("%q: %s is no JSON: %v", q, twin, err)
	}
	return spec, drawn
}

// TestChartSpecs_Sandbox draws each kind of chart the built-in analyst makes and reads the
// Vega-Lite twin it writes beside the PNG: the mark, the encodings, one data row per point
// drawn, the PNG's titles, zoom only on a continuous x axis and a clickable legend only where
// the PNG has a legend.
func TestChartSpecs_Sandbox(t *testing.T) {
	k := newKernel(t, []string{"sales.csv"})
	p, err := parseProfile(k.exec(profileCode([]string{"sales.csv"}, "")))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		q, count, mark string
		enc            []string // channels the spec must encode, each with a field
		zoom           []string // the zoom selection's encodings; nil: none
		legend         bool
	}{
		{"bar chart of revenue by region", "len(result)", "bar", []string{"x", "y", "color"}, nil, false},
		{"barh of units by sales rep", "len(result)", "bar", []string{"x", "y"}, nil, false},
		{"what's the revenue share by category? pie please", "len(result)", "arc", []string{"theta", "color"}, nil, true},
		{"histogram of revenue", "len(ax.patches)", "rect", []string{"x", "x2", "y"}, nil, false},
		{"histogram of revenue by region", "len(ax.patches)", "rect", []string{"x", "x2", "y", "color"}, nil, true},
		{"scatter of units vs revenue with a trend line", "len(pair) + 100", "point+line", []string{"x", "y", "color"}, []string{"x", "y"}, true},
		{"scatter units against revenue colored by category", "len(pair)", "point", []string{"x", "y", "color"}, []string{"x", "y"}, true},
		{"plot monthly revenue", "shown.size", "line", []string{"x", "y", "color"}, []string{"x"}, false}, // one series
		{"plot monthly revenue and units", "shown.size", "line", []string{"x", "y", "color"}, []string{"x"}, true},
		{"area chart of revenue by category over time", "shown.size", "area", []string{"x", "y", "y2", "color"}, []string{"x"}, true},
		// whiskers, caps, box, median: one row a box; and a row an outlier
		{"box plot of revenue by region", "len(result) + sum(len(l.get_ydata()) for l in ax.lines[6::7])", "rule+rule+bar+bar+bar+bar+point", nil, nil, false},
	}
	for _, c := range cases {
		t.Run(c.q, func(t *testing.T) {
			spec, drawn := chartOf(t, k, p, c.q, c.count)
			if spec == nil {
				t.Fatalf("no Vega-Lite spec beside the PNG")
			}
			if got := spec.markType(); got != c.mark {
				t.Errorf("mark %q, want %q", got, c.mark)
			}
			for _, ch := range c.enc {
				if e, ok := spec.Encoding[ch]; !ok || e.Field == "" {
					t.Errorf("no field on %s: %+v", ch, spec.Encoding)
				}
			}
			if n := len(spec.values()); float64(n) != drawn[3].(float64) {
				t.Errorf("%d data rows, the chart draws %v points", n, drawn[3])
			}
			title, _ := spec.titleText()
			if title == "" || title != drawn[0] {
				t.Errorf("title %q, the PNG's %q", title, drawn[0])
			}
			for i, ch := range []string{"x", "y"} {
				label := drawn[1+i].(string)
				if e, ok := spec.Encoding[ch]; ok && label != "" && (e.Title == nil || *e.Title != label) {
					t.Errorf("%s title %v, the PNG's %q", ch, e.Title, label)
				}
			}
			params := spec.params()
			if zoom, ok := params["zoom"]; strings.Join(zoom, ",") != strings.Join(c.zoom, ",") || ok != (c.zoom != nil) {
				t.Errorf("zoom on %v, want %v", zoom, c.zoom)
			}
			// Zoomed on x alone, y fits the points in view; a zoom on both
			// axes leaves y to the user's hand.
			if got, want := spec.zoomFiltered(), strings.Join(c.zoom, ",") == "x"; got != want {
				t.Errorf("y fits the zoomed points: %v, want %v", got, want)
			}
			if _, ok := params["legend"]; ok != c.legend {
				t.Errorf("legend toggling %v, want %v", ok, c.legend)
			}
			if strings.HasPrefix(c.q, "barh") {
				barhAxes(t, k, spec)
			}
		})
	}
}

// barhAxes checks a horizontal bar chart names its categories down the y axis in the PNG's
// order, the largest on top, and has its values on x.
func barhAxes(t *testing.T, k *kernel, spec *vlSpec) {
	res := k.exec("print(json.dumps([str(i) for i in result.index]))")
	var order, sort []string
	if err := json.Unmarshal([]byte(res.Stdout), &order); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal(spec.Encoding["y"].Sort, &sort)
	if spec.Encoding["y"].Type != "nominal" || strings.Join(sort, ",") != strings.Join(order, ",") {
		t.Errorf("y %s sorted %v, want the result's order %v", spec.Encoding["y"].Type, sort, order)
	}
	if spec.Encoding["x"].Type != "quantitative" {
		t.Errorf("x is %s", spec.Encoding["x"].Type)
	}
}

// TestChartSpecsOfLongSeries_Sandbox: a series longer than the analyst draws in full is
// reduced the same way in the spec, at most about 2,000 points, and the reduction is named in
// the spec's subtitle as on the PNG.
func TestChartSpecsOfLongSeries_Sandbox(t *testing.T) {
	k := newKernel(t, nil)
	var b strings.Builder
	b.WriteString("when,level\n")
	start := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 9000 {
		fmt.Fprintf(&b, "%s,%d\n", start.AddDate(0, 0, i).Format("2006-01-02"), 100+i%37)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := k.sess.PutFile(ctx, "long.csv", strings.NewReader(b.String())); err != nil {
		t.Fatal(err)
	}
	p, err := parseProfile(k.exec(profileCode([]string{"long.csv"}, "")))
	if err != nil {
		t.Fatal(err)
	}
	spec, drawn := chartOf(t, k, p, "plot level over time", "shown.size")
	if spec == nil {
		t.Fatal("no spec for a long line")
	}
	n := len(spec.values())
	if float64(n) != drawn[3].(float64) || n > 2100 || n < 1000 {
		t.Errorf("%d data rows for %v points drawn", n, drawn[3])
	}
	if _, sub := spec.titleText(); len(sub) == 0 || !strings.Contains(sub[0], "Drawn from") {
		t.Errorf("the reduction is not named: subtitle %q", sub)
	}
}

// TestChartsWithoutSpec_Sandbox: a figure a Vega-Lite spec would not show faithfully (a
// heatmap, colour-mapped points, two plots, a log scale, sideways or notched boxes) keeps its
// PNG and gets no spec, never a wrong interactive chart.
func TestChartsWithoutSpec_Sandbox(t *testing.T) {
	k := newKernel(t, []string{"sales.csv"})
	p, err := parseProfile(k.exec(profileCode([]string{"sales.csv"}, "")))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"sales by region and category heatmap"} {
		if spec, _ := chartOf(t, k, p, q, "0"); spec != nil {
			t.Errorf("%q: a spec of mark %q", q, spec.markType())
		}
	}
	figures := map[string]string{
		"colour-mapped":  "fig, ax = plt.subplots()\nax.scatter([1, 2, 3], [3, 1, 2], c=[1, 2, 3])\n_save_chart(fig, 'cmap.png')",
		"two plots":      "fig, (a, b) = plt.subplots(1, 2)\na.plot([1, 2], [3, 4])\nb.bar(['x'], [1])\n_save_chart(fig, 'two.png')",
		"log scale":      "fig, ax = plt.subplots()\nax.plot([1, 2, 3], [1, 10, 100])\nax.set_yscale('log')\n_save_chart(fig, 'log.png')",
		"reference":      "fig, ax = plt.subplots()\nax.plot([1, 2, 3], [1, 2, 3])\nax.axhline(2)\n_save_chart(fig, 'ref.png')",
		"unsorted":       "fig, ax = plt.subplots()\nax.plot([3, 1, 2], [1, 2, 3])\n_save_chart(fig, 'loop.png')",
		"sideways boxes": "fig, ax = plt.subplots()\nax.boxplot([[1, 2, 3, 9]], vert=False)\n_save_chart(fig, 'hbox.png')",
		"notched boxes":  "fig, ax = plt.subplots()\nax.boxplot([[1, 2, 3, 4, 5, 9]], notch=True)\n_save_chart(fig, 'notch.png')",
		"bar colours":    "fig, ax = plt.subplots()\nax.bar(['a', 'b'], [1, 2], color=['red', 'blue'])\n_save_chart(fig, 'colours.png')",
		"bars and line":  "fig, ax = plt.subplots()\nax.bar(['a', 'b'], [1, 2])\nax.plot([0, 1], [1, 2])\n_save_chart(fig, 'mixed.png')",
	}
	for name, code := range figures {
		c := k.exec(code)
		if c.Error != nil || len(c.Files) != 1 || !strings.HasSuffix(c.Files[0], ".png") {
			t.Errorf("%s: files %v, error %v; want the PNG alone", name, c.Files, c.Error)
		}
	}
}

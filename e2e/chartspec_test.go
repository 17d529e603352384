package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// plantedSpec is a chart spec as hostile code would write it: its data
// loads from a URL of the app (with the reader's cookies), its marks are
// links, and its embed options turn "View Source" and the editor back on.
const plantedSpec = `{"$schema": "https://vega.github.io/schema/vega-lite/v5.json",
 "usermeta": {"embedOptions": {"actions": true}},
 "data": {"url": "/planted-probe.json"},
 "mark": "bar",
 "encoding": {"x": {"field": "a", "type": "nominal"}, "y": {"field": "b", "type": "quantitative"}, "href": {"field": "link"}}}`

// TestPlantedChartSpecIsInert has code write plantedSpec to /mnt/data and
// wants no request to leave for its URL and no "View Source" or editor
// action on the page: the spec is refused, or drawn inert.
func TestPlantedChartSpecIsInert(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)
	ask(t, ctx, fmt.Sprintf("```python\nopen('/mnt/data/planted.vl.json', 'w').write('''%s''')\nprint('planted')\n```", plantedSpec))
	// The sandbox's first cell may be slow on a loaded machine.
	waitUntil(t, ctx, 60*time.Second, "the answer done", `!!document.querySelector('[data-testid="send"]') && (document.querySelector('.cell .cell-output')?.textContent || '').includes('planted')`)
	// Drawn or refused, the chart has settled: vega-embed resolves only
	// after the view ran, its data loads included.
	waitFor(t, ctx, "the chart settled", `(() => {
		const f = document.querySelector('figure[data-vega-lite]');
		return !f || f.dataset.vegaState === 'ready' || f.dataset.vegaState === 'failed';
	})()`)
	if strings.Contains(srv.log.String(), "planted-probe") {
		t.Error("the page fetched the spec's data URL")
	}
	actions := js[[]string](t, ctx, `[...document.querySelectorAll('.vega-embed .vega-actions a')].map(a => a.textContent)`)
	for _, a := range actions {
		if strings.Contains(a, "Source") || strings.Contains(a, "Editor") || strings.Contains(a, "Compiled") {
			t.Errorf("the chart offers %q", a)
		}
	}
	if js[int](t, ctx, `document.querySelectorAll('.vega-embed a[href]:not(.vega-actions a)').length`) != 0 {
		t.Error("the chart's marks are links")
	}
}

package views

import (
	"strings"

	"github.com/analyst-workbench/workbench/static"
)

// vegaLibs are the vendored scripts js/vega.js loads, in order, when a page
// has an interactive chart (see static/vendor/VENDOR).
func vegaLibs() string {
	return strings.Join([]string{
		static.URL("vendor/vega-5.33.1.min.js"),
		static.URL("vendor/vega-lite-5.23.0.min.js"),
		static.URL("vendor/vega-interpreter-1.2.1.min.js"),
		static.URL("vendor/vega-embed-6.29.0.min.js"),
	}, " ")
}

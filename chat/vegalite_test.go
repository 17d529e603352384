package chat

import (
	"strings"
	"testing"
)

// TestCheckVegaLite accepts inline Vega-Lite and refuses a url, href or
// usermeta at any depth, and a full Vega spec.
func TestCheckVegaLite(t *testing.T) {
	ok := `{"$schema":"https://vega.github.io/schema/vega-lite/v5.json","data":{"values":[{"a":1}]},"mark":"bar"}`
	if err := CheckVegaLite(strings.NewReader(ok)); err != nil {
		t.Errorf("inline spec refused: %v", err)
	}
	for name, spec := range map[string]string{
		"data url":      `{"data":{"url":"/s/x"},"mark":"bar"}`,
		"deep url":      `{"layer":[{"mark":"image","encoding":{"url":{"field":"u"}}}]}`,
		"href":          `{"mark":"bar","encoding":{"href":{"field":"l"}}}`,
		"usermeta":      `{"usermeta":{"embedOptions":{"actions":true}},"mark":"bar"}`,
		"vega":          `{"$schema":"https://vega.github.io/schema/vega/v5.json"}`,
		"not an object": `[1]`,
	} {
		if CheckVegaLite(strings.NewReader(spec)) == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

package analyst

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestChartInkContrast: the charts' text, ticks and frame are drawn in an
// ink of at least 4.5:1 (WCAG AA for small text) against the white ground
// every chart PNG brings with it, whatever the theme it is shown in.
func TestChartInkContrast(t *testing.T) {
	t.Parallel()
	m := regexp.MustCompile(`(?m)^_INK = "#([0-9a-fA-F]{6})"`).FindStringSubmatch(loaderFile)
	if m == nil {
		t.Fatal("loader.py declares no _INK")
	}
	if c := contrast(luminance(m[1]), 1); c < 4.5 {
		t.Errorf("ink #%s has contrast %.2f:1 on white, want at least 4.5:1", m[1], c)
	}
	for _, want := range []string{`"figure.facecolor": "white"`, `"savefig.transparent": False`} {
		if !strings.Contains(loaderFile, want) {
			t.Errorf("loader.py's chart style lacks %s: the PNG must bring its own ground", want)
		}
	}
}

// luminance is the relative luminance of an sRGB colour "rrggbb".
func luminance(hex string) float64 {
	var l float64
	for i, w := range []float64{0.2126, 0.7152, 0.0722} {
		v, _ := strconv.ParseUint(hex[2*i:2*i+2], 16, 8)
		c := float64(v) / 255
		if c <= 0.03928 {
			c /= 12.92
		} else {
			c = math.Pow((c+0.055)/1.055, 2.4)
		}
		l += w * c
	}
	return l
}

func contrast(a, b float64) float64 { return (math.Max(a, b) + 0.05) / (math.Min(a, b) + 0.05) }

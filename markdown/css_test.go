package markdown

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
)

// TestCodeCSS_golden fails when testdata/code.css, the copy the app serves as
// static/css/code.css, no longer matches CodeCSS. Run go test ./markdown -update to rewrite
// it, then copy it over the static file.
func TestCodeCSS_golden(t *testing.T) {
	compareGolden(t, "testdata/code.css", CodeCSS())
}

func TestCodeCSS_scoped(t *testing.T) {
	css := CodeCSS()
	for _, line := range strings.Split(css, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasSuffix(line, "{") && !strings.HasPrefix(line, "@media") ||
			strings.Contains(line, "{ ") && !strings.HasPrefix(line, ".chroma") {
			t.Errorf("rule not scoped under .chroma: %q", line)
		}
	}
	if strings.Count(css, "@media (prefers-color-scheme: dark)") != 1 {
		t.Error("want exactly one dark-scheme block")
	}
}

// TestCodeCSS_darkCoversLight checks that every selector of the light theme is set again in
// the dark block, so no light colour shows through in dark mode.
func TestCodeCSS_darkCoversLight(t *testing.T) {
	light, dark, _ := strings.Cut(CodeCSS(), "@media")
	for _, line := range strings.Split(light, "\n") {
		sel, _, ok := strings.Cut(line, " {")
		if !ok || !strings.HasPrefix(sel, ".chroma .") {
			continue
		}
		props := declaredProperties(line)
		darkLine := findRule(dark, sel)
		if darkLine == "" {
			t.Errorf("%s: no dark rule", sel)
			continue
		}
		darkProps := declaredProperties(darkLine)
		for p := range props {
			if !darkProps[p] {
				t.Errorf("%s: %s set in light but not in dark", sel, p)
			}
		}
	}
}

// TestCodeCSS_contrast checks every token colour of both themes against the background it
// is drawn on, for WCAG AA (4.5:1), as UI.md asks.
func TestCodeCSS_contrast(t *testing.T) {
	for _, th := range []theme{lightTheme, darkTheme} {
		for _, tt := range styledTypes(th) {
			e := th.entry(tt)
			fg, bg := th.text, th.background
			if e.Colour.IsSet() {
				fg = e.Colour.String()
			}
			if e.Background.IsSet() {
				bg = e.Background.String()
			}
			if r := contrast(fg, bg); r < 4.5 {
				t.Errorf("%s .%s: %s on %s has contrast %.2f, want at least 4.5",
					th.style, chroma.StandardTypes[tt], fg, bg, r)
			}
		}
	}
}

func declaredProperties(rule string) map[string]bool {
	_, body, _ := strings.Cut(rule, "{")
	props := map[string]bool{}
	for _, d := range strings.Split(strings.TrimSuffix(strings.TrimSpace(body), "}"), ";") {
		if name, _, ok := strings.Cut(d, ":"); ok {
			props[strings.TrimSpace(name)] = true
		}
	}
	return props
}

func findRule(css, selector string) string {
	for _, line := range strings.Split(css, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), selector+" {") {
			return line
		}
	}
	return ""
}

// contrast returns the WCAG contrast ratio of two #rrggbb colours.
func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

func luminance(hex string) float64 {
	v, _ := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	channel := func(shift uint) float64 {
		c := float64((v>>shift)&0xff) / 255
		if c <= 0.03928 {
			return c / 12.92
		}
		return math.Pow((c+0.055)/1.055, 2.4)
	}
	return 0.2126*channel(16) + 0.7152*channel(8) + 0.0722*channel(0)
}

func TestContrast(t *testing.T) {
	if got := contrast("#000000", "#ffffff"); math.Abs(got-21) > 0.01 {
		t.Errorf("contrast(black, white) = %.2f, want 21", got)
	}
	if got := contrast("#777777", "#ffffff"); got >= 4.5 {
		t.Errorf("contrast(#777, white) = %.2f, want below 4.5", got)
	}
}

package chat_test

import (
	"testing"

	"github.com/analyst-workbench/workbench/chat"
)

// TestShownCodeLeavesOutEngineReporting shows a built-in analyst's cell as
// an analyst would write it: no _emit statement, one over several lines
// included, and no block left with nothing in it; code without them is
// shown as it ran, and so is code the user or a model wrote, _emit and all.
func TestShownCodeLeavesOutEngineReporting(t *testing.T) {
	code := "df = frames[\"stocks.csv\"]\n" +
		"_emit(\"rows\", n=len(df), where=\"Close (above) 100\")\n" +
		"result = df.describe()\n" +
		"_emit(\"overview\", key=\"stocks.csv\",\n" +
		"      kinds=[[c, str(t)] for c, t in df.dtypes.items()])\n" +
		"if _note:\n" +
		"    _emit(\"thinned\", note=_note)\n" +
		"for key, d in frames.items():\n" +
		"    print(key)\n" +
		"    _emit(\"columns\", key=key)\n" +
		"result"
	want := "df = frames[\"stocks.csv\"]\nresult = df.describe()\nfor key, d in frames.items():\n    print(key)\nresult"
	if got := (&chat.Cell{Code: code, Analyst: true}).ShownCode(); got != want {
		t.Errorf("ShownCode =\n%s\nwant\n%s", got, want)
	}
	if plain := "print(1)\nif x:\n    y()"; (&chat.Cell{Code: plain, Analyst: true}).ShownCode() != plain {
		t.Errorf("code without _emit changed: %q", (&chat.Cell{Code: plain, Analyst: true}).ShownCode())
	}
	if users := (&chat.Cell{Code: code}); users.ShownCode() != code {
		t.Errorf("the user's own code lost its _emit lines: %q", users.ShownCode())
	}
	if loader := (&chat.Cell{Code: code, Loader: true, Analyst: true}); loader.ShownCode() != code {
		t.Errorf("the loader's code changed: %q", loader.ShownCode())
	}
}

package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxSpecBytes caps a chart spec the page will draw; the built-in analyst's
// specs of a few thousand points are far below it.
const maxSpecBytes = 8 << 20

// vegaLiteSchema starts the $schema of every Vega-Lite spec; a full Vega
// spec (signals, its own data loading) is not accepted.
const vegaLiteSchema = "https://vega.github.io/schema/vega-lite/"

// specForbidden are the keys a spec written by user code may not hold at
// any depth: url loads data (with the reader's cookies, on the app's
// origin), href makes marks links, and usermeta carries embed options that
// would turn back on "View Source" and the editor.
var specForbidden = map[string]string{
	"url":      "it loads data from a URL",
	"href":     "it makes marks into links",
	"usermeta": "it sets options of the page",
}

// CheckVegaLite reports why a chart spec written by user code may not be
// drawn on the page, or nil when it is a Vega-Lite spec whose data is all
// inline. The page draws only such specs; the PNG stands for any other.
func CheckVegaLite(r io.Reader) error {
	b, err := io.ReadAll(io.LimitReader(r, maxSpecBytes+1))
	if err != nil {
		return err
	}
	if len(b) > maxSpecBytes {
		return fmt.Errorf("it is larger than %d MB", maxSpecBytes>>20)
	}
	var spec map[string]any
	if err := json.Unmarshal(b, &spec); err != nil {
		return errors.New("it is not a JSON object")
	}
	if s, ok := spec["$schema"].(string); ok && !strings.HasPrefix(s, vegaLiteSchema) {
		return errors.New("it is not Vega-Lite")
	}
	return forbiddenKey(spec)
}

// forbiddenKey walks v and names the first forbidden key it finds.
func forbiddenKey(v any) error {
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			if why, ok := specForbidden[strings.ToLower(k)]; ok {
				return fmt.Errorf("%s (%q)", why, k)
			}
			if err := forbiddenKey(child); err != nil {
				return err
			}
		}
	case []any:
		for _, child := range v {
			if err := forbiddenKey(child); err != nil {
				return err
			}
		}
	}
	return nil
}

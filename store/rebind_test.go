package store

import "testing"

func TestRebind(t *testing.T) {
	for in, want := range map[string]string{
		`SELECT 1`:                   `SELECT 1`,
		`a = ? AND b = ?`:            `a = $1 AND b = $2`,
		`a = ?1 OR b = ?1 OR c = ?2`: `a = $1 OR b = $1 OR c = $2`,
		`a = ?2 AND b = ?`:           `a = $2 AND b = $3`,
		`x LIKE ? ESCAPE '\' AND y = '?' AND z = ?`: `x LIKE $1 ESCAPE '\' AND y = '?' AND z = $2`,
		`"odd?" = ? -- why?` + "\n" + `AND w = ?`:   `"odd?" = $1 -- why?` + "\n" + `AND w = $2`,
		`'it''s?' || ?`:                        `'it''s?' || $1`,
		`$$ body ? $$ || ? || $f$ ? $f$ || $1`: `$$ body ? $$ || $1 || $f$ ? $f$ || $1`,
	} {
		if got := rebind(in); got != want {
			t.Errorf("rebind(%q) = %q, want %q", in, got, want)
		}
	}
}

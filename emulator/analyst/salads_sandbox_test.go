package analyst

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestPlan_SaladsRunInSandbox runs the code planned for random word salads, with random
// earlier questions, in the sandbox: whatever is typed, a planned cell must run, failing at most
// with the plain "no rows match" of filters that leave nothing.
func TestPlan_SaladsRunInSandbox(t *testing.T) {
	rng := rand.New(rand.NewPCG(fuzzSeed(), 9))
	for _, set := range []string{px, sv, sl, slc, st, co} {
		p := loadProfile(t, set)
		pool := append([]string{}, vocabWords...)
		pool = append(pool, "by", "for", "in", "after", "2010", "2024", "March", "5", ">", "it", "same", "only", "not", "vs", "top", "3")
		for _, f := range p.Frames {
			for _, c := range f.Columns {
				pool = append(pool, c.Name, c.Name, c.Name)
				pool = append(pool, c.Values...)
			}
		}
		files := strings.Split(set, "+")
		k := newKernel(t, files)
		k.exec(profileCode(files, ""))
		for runs, i := 0, 0; i < 200 && runs < 12; i++ {
			q := salad(rng, pool, 2+rng.IntN(5))
			pl := makePlan(q, history([]string{salad(rng, pool, 3), salad(rng, pool, 2)}), p)
			if len(pl.Cells) == 0 {
				continue
			}
			runs++
			if c := k.exec(pl.Cells[0]); c.Error != nil && !strings.HasPrefix(c.Error.Value, noRowsPrefix) {
				t.Errorf("%s: %q raised %s: %s\n%s", set, q, c.Error.Name, clip(c.Error.Value, 300), c.Code)
			}
		}
	}
}

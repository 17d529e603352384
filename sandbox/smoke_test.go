package sandbox

import (
	"context"
	"testing"
)

func TestSmoke(t *testing.T) {
	ctx := context.Background()
	p, err := NewPool(ctx, Config{Warm: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	t.Logf("stats %+v", p.Stats())
	s, err := p.Session(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Exec(ctx, "x = 41\nprint('hi')\nx+1")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v %+v", r, r.Value)
	t.Logf("stats %+v", p.Stats())
}

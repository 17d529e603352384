package sandbox

import (
	"context"
	"strings"
	"testing"
)

// getrlimitAS prints the kernel's address-space limit, soft and hard.
const getrlimitAS = "import resource\nprint(resource.getrlimit(resource.RLIMIT_AS))"

// TestLimitMemory lowers a kernel's memory below the pool's: an allocation
// the pool would allow is a MemoryError, the session lives on, a cell
// cannot raise the limit again, and a restore after an eviction keeps it.
func TestLimitMemory(t *testing.T) {
	p := sharedPool(t) // 1 GiB a kernel
	s := openSession(t, p)
	ctx := context.Background()
	// A kernel starts with about 450 MiB of address space mapped (Python and
	// the data stack), so 400 MiB more fits under the pool's 1 GiB only.
	runOK(t, s, "kept = 42\nprobe = bytearray(400 << 20)\ndel probe")
	got, err := s.LimitMemory(ctx, 768<<20)
	if err != nil || got != 768<<20 {
		t.Fatalf("LimitMemory(768 MiB) = %d, %v", got, err)
	}
	if r := runOK(t, s, getrlimitAS); strings.TrimSpace(r.Stdout) != "(805306368, 805306368)" {
		t.Fatalf("RLIMIT_AS after LimitMemory: %s", r.Stdout)
	}
	if r := run(t, s, "probe = bytearray(400 << 20)"); r.Error == nil || r.Error.Name != "MemoryError" {
		t.Fatalf("400 MiB more under a 768 MiB limit: error %v, want MemoryError", r.Error)
	}
	if r := run(t, s, "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))"); r.Error == nil {
		t.Fatal("a cell raised its kernel's memory limit again")
	}
	assertAlive(t, s, "kept", "42")

	evictNow(t, p, s)
	if !evicted(s) {
		t.Fatal("the session was not evicted")
	}
	if r := runOK(t, s, getrlimitAS); strings.TrimSpace(r.Stdout) != "(805306368, 805306368)" {
		t.Fatalf("RLIMIT_AS after a restore: %s, want the session's 768 MiB", r.Stdout)
	}
}

// TestLimitMemory_CappedByThePool: a kernel never gets more than the pool
// gives any kernel, and a limit too small for pandas is refused.
func TestLimitMemory_CappedByThePool(t *testing.T) {
	s := openSession(t, sharedPool(t))
	ctx := context.Background()
	if got, err := s.LimitMemory(ctx, 16<<30); err != nil || got != 1<<30 {
		t.Fatalf("LimitMemory(16 GiB) = %d, %v; want the pool's 1 GiB", got, err)
	}
	if r := runOK(t, s, getrlimitAS); strings.TrimSpace(r.Stdout) != "(1073741824, 1073741824)" {
		t.Fatalf("RLIMIT_AS: %s", r.Stdout)
	}
	if _, err := s.LimitMemory(ctx, 100<<20); err == nil {
		t.Fatal("a 100 MiB limit was accepted")
	}
}

package sandbox

import (
	"context"
	"fmt"
)

// minKernelMemory is the least a kernel may be limited to: below it pandas
// cannot even be used (Config.MemoryBytes has the same floor).
const minKernelMemory = 256 << 20

// LimitMemory lowers the memory this session's kernel may take to bytes, or
// to Config.MemoryBytes, the most any kernel has, when bytes is more; it
// returns the limit now in force. Like Config.MemoryBytes, the limit is the
// address space of the kernel's Python (RLIMIT_AS), lowered soft and hard so
// that no cell can raise it again: a cell that asks for more gets a
// MemoryError and the session lives on. Processes a cell starts inherit it,
// and a kernel restored after an eviction gets it before it loads anything.
// The session's resource group keeps the pool's limit as a backstop.
func (s *Session) LimitMemory(ctx context.Context, bytes int64) (int64, error) {
	if bytes < minKernelMemory {
		return 0, fmt.Errorf("sandbox: memory limit %d is below 256 MiB, too small for pandas", bytes)
	}
	if err := s.begin(); err != nil {
		return 0, err
	}
	defer s.finish()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.memLimit = min(bytes, s.cfg.MemoryBytes)
	if err := s.ensureLive(ctx); err != nil { // a restore applies the limit itself
		return 0, err
	}
	stop := s.guard(ctx)
	defer stop()
	return s.memLimit, s.applyMemoryLimit()
}

// applyMemoryLimit tells the kernel the session's memory limit, if it has
// one. The caller holds s.mu.
func (s *Session) applyMemoryLimit() error {
	if s.memLimit == 0 {
		return nil
	}
	var reply wireReply
	if err := s.exchange(request{Op: "limit_memory", Bytes: s.memLimit}, &reply, smallBound); err != nil {
		return err
	}
	if !reply.OK {
		return fmt.Errorf("sandbox: limit memory: %s", reply.errorText())
	}
	return nil
}

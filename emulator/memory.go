package emulator

import (
	"cmp"
	"context"
	"fmt"
)

// memoryLimits maps each container size of the hosted Code Interpreter
// (memory_limit, foundry-api.md §2) to the memory it gives, in bytes.
var memoryLimits = map[string]int64{"1g": 1 << 30, "4g": 4 << 30, "16g": 16 << 30, "64g": 64 << 30}

// defaultMemoryLimit is the size the service reports for a container that
// asked for none.
const defaultMemoryLimit = "1g"

// checkMemoryLimit accepts "" (none asked) and the sizes of memoryLimits.
// Any other value is a 400 naming the value and the sizes there are: that
// the service refuses one, and how it words it, is UNCONFIRMED (the sizes
// come from the JS SDK's CodeInterpreterTool documentation).
func checkMemoryLimit(limit, param string) error {
	if _, ok := memoryLimits[limit]; ok || limit == "" {
		return nil
	}
	return &apiError{status: 400, code: "invalid_value", param: param,
		message: fmt.Sprintf("Invalid value for 'memory_limit': %q. Supported values are: '1g', '4g', '16g' and '64g'.", limit)}
}

// memoryLimiter is a Kernel whose memory can be lowered once claimed; the
// sandbox's are (see sandboxKernel.LimitMemory). It returns the limit now in
// force, which may be less than asked.
type memoryLimiter interface {
	LimitMemory(ctx context.Context, bytes int64) (int64, error)
}

// limitKernelMemory gives a new container's kernel the memory its
// memory_limit names, as far as the kernel can have it: a sandbox kernel
// gets at most what the sandbox gives any kernel (2 GiB by default), so 4g
// and beyond are capped by what this machine was set up to give; a kernel
// that cannot be limited (a test double) keeps what it has. No memory_limit
// leaves the kernel as the sandbox made it: the container reports the
// service's default, 1g, but the local engine takes no memory from the
// kernels of clients that never asked (liberal).
func (s *Server) limitKernelMemory(ctx context.Context, k Kernel, limit string) error {
	lim, ok := k.(memoryLimiter)
	if limit == "" || !ok {
		return nil
	}
	got, err := lim.LimitMemory(ctx, memoryLimits[limit])
	if err != nil {
		return fmt.Errorf("limit the kernel's memory to %s: %w", limit, err)
	}
	if got < memoryLimits[limit] {
		s.log.Info("container memory capped by the sandbox", "kernel", k.ID(), "memory_limit", limit,
			"memory_mb", got>>20, "hint", "the sandbox's per-kernel memory (MemoryBytes) caps every kernel")
	}
	return nil
}

// reportedMemoryLimit is what a container object says of its size: as asked, or the default.
func reportedMemoryLimit(limit string) string { return cmp.Or(limit, defaultMemoryLimit) }

package emulator

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/analyst-workbench/workbench/cellext"
	"github.com/analyst-workbench/workbench/sandbox"
)

// startSandbox starts the default kernels: a sandbox pool whose session limits follow the
// emulator's container limits.
func startSandbox(ctx context.Context, cfg Config) (Kernels, func() error, error) {
	sc := cfg.Sandbox
	if sc.IdleTimeout <= 0 {
		sc.IdleTimeout = cfg.IdleTimeout
	}
	if sc.Lifetime <= 0 {
		sc.Lifetime = cfg.Lifetime
	}
	if sc.Logger == nil {
		sc.Logger = cfg.Logger
	}
	if sc.StateDir == "" {
		sc.StateDir = filepath.Join(cfg.DataDir, "sandbox-state")
	}
	pool, err := sandbox.NewPool(ctx, sc)
	if pool != nil && errors.Is(err, sandbox.ErrIsolationUnavailable) {
		// Serve anyway: agents, files and conversations still work, every turn that needs code
		// fails with the reason, and Ready reports it. Refusing to start would hide the reason
		// behind a dead port.
		cfg.Logger.Error("emulator: THE SANDBOX REFUSES TO RUN CODE: isolation is unavailable; turns with code will fail",
			"err", err, "hint", "fix bubblewrap/user namespaces, or choose isolation none on a development machine")
		err = nil
	}
	if err != nil {
		if pool != nil {
			pool.Close()
		}
		return nil, nil, fmt.Errorf("emulator: start sandbox: %w", err)
	}
	return SandboxKernels{Pool: pool}, pool.Close, nil
}

// SandboxKernels adapts a *sandbox.Pool to Kernels, for callers that build their own pool.
type SandboxKernels struct {
	Pool *sandbox.Pool
}

// Session claims a warm sandbox session for owner.
func (k SandboxKernels) Session(ctx context.Context, owner string) (Kernel, error) {
	s, err := k.Pool.SessionFor(ctx, owner)
	if err != nil {
		return nil, err
	}
	return sandboxKernel{s}, nil
}

// Ready reports whether the pool can run code (its latest self-test).
func (k SandboxKernels) Ready() error { return k.Pool.Ready() }

// sandboxKernel adapts a *sandbox.Session to Kernel.
type sandboxKernel struct {
	s *sandbox.Session
}

// ID returns the session id.
func (k sandboxKernel) ID() string { return k.s.ID() }

// Interrupt interrupts the running cell.
func (k sandboxKernel) Interrupt() error { return k.s.Interrupt() }

// Close ends the session.
func (k sandboxKernel) Close() error { return k.s.Close() }

// Done is closed when the session ends.
func (k sandboxKernel) Done() <-chan struct{} { return k.s.Done() }

// DeleteFile removes a file from /mnt/data.
func (k sandboxKernel) DeleteFile(ctx context.Context, name string) error {
	return k.s.DeleteFile(ctx, name)
}

// PutFile writes a file into /mnt/data.
func (k sandboxKernel) PutFile(ctx context.Context, name string, r io.Reader) error {
	return k.s.PutFile(ctx, name, r)
}

// CopyFile streams a file of /mnt/data to w.
func (k sandboxKernel) CopyFile(ctx context.Context, name string, w io.Writer) (int64, error) {
	return k.s.CopyFile(ctx, name, w)
}

// ListFiles lists /mnt/data.
func (k sandboxKernel) ListFiles(ctx context.Context) ([]KernelFile, error) {
	files, err := k.s.ListFiles(ctx)
	if err != nil {
		return nil, err
	}
	return kernelFiles(files), nil
}

// Exec runs a cell and converts its result.
func (k sandboxKernel) Exec(ctx context.Context, code string) (*ExecResult, error) {
	res, err := k.s.Exec(ctx, code)
	if err != nil {
		return nil, err
	}
	out := &ExecResult{Stdout: res.Stdout, Stderr: res.Stderr, Files: kernelFiles(res.Files),
		Truncated: res.Truncated}
	if res.Error != nil {
		out.Error = &ExecError{Name: res.Error.Name, Value: res.Error.Value, Traceback: res.Error.Traceback}
	}
	if res.Value != nil {
		out.Value, out.Table = res.Value.Text, res.Value.Table
	}
	for _, f := range res.Figures {
		out.Images = append(out.Images, f.PNG)
	}
	if r := res.Restored; r != nil {
		out.Restored = &cellext.Restored{Names: r.Restored, Files: r.Files}
		for _, l := range r.Lost {
			out.Restored.Lost = append(out.Restored.Lost, cellext.Lost{Name: l.Name, Reason: l.Reason})
		}
	}
	for _, r := range res.Reports {
		out.Reports = append(out.Reports, Report{Kind: r.Kind, Body: r.Body})
	}
	return out, nil
}

func kernelFiles(files []sandbox.FileInfo) []KernelFile {
	out := make([]KernelFile, len(files))
	for i, f := range files {
		out[i] = KernelFile{Name: f.Name, Size: f.Size, ModTime: f.ModTime}
	}
	return out
}

// LimitMemory lowers the session's memory, capped by the sandbox's own
// per-kernel limit.
func (k sandboxKernel) LimitMemory(ctx context.Context, bytes int64) (int64, error) {
	return k.s.LimitMemory(ctx, bytes)
}

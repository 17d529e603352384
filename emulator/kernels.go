package emulator

import (
	"context"
	"io"
	"time"

	"github.com/analyst-workbench/workbench/cellext"
)

// Kernels hands out fresh Python kernels, one per container. The sandbox package's pool is the
// production implementation (see sandbox.go); tests may substitute their own.
type Kernels interface {
	// Session returns a new, persistent kernel that nobody else uses, for
	// owner (the end user, when the client says who; kernels may be shared
	// out fairly between owners).
	Session(ctx context.Context, owner string) (Kernel, error)
}

// readier is implemented by Kernels that can tell whether they are able to run code.
type readier interface {
	Ready() error
}

// Kernel is one persistent Python interpreter whose working directory is /mnt/data.
type Kernel interface {
	// ID names the kernel in logs.
	ID() string
	// Exec runs one cell and reports what it printed, raised, drew and wrote. Ending ctx
	// interrupts the cell; a Python exception is in the result, not in the error.
	Exec(ctx context.Context, code string) (*ExecResult, error)
	// PutFile writes a file into /mnt/data.
	PutFile(ctx context.Context, name string, r io.Reader) error
	// CopyFile writes a file of /mnt/data to w as it is read, and returns
	// its size; an error before anything was written means no such file.
	CopyFile(ctx context.Context, name string, w io.Writer) (int64, error)
	// ListFiles lists the files under /mnt/data.
	ListFiles(ctx context.Context) ([]KernelFile, error)
	// DeleteFile removes a file from /mnt/data.
	DeleteFile(ctx context.Context, name string) error
	// Interrupt stops the running cell, if any.
	Interrupt() error
	// Close ends the kernel; later calls fail.
	Close() error
	// Done is closed when the kernel has ended, whatever the reason.
	Done() <-chan struct{}
}

// ExecResult is what one cell produced.
type ExecResult struct {
	Stdout, Stderr string
	// Error is set when the cell raised.
	Error *ExecError
	// Value is the text of the cell's last expression, if any.
	Value string
	// Table is the value's table form as JSON when it is a DataFrame or
	// Series (see sandbox.Value.Table), else empty.
	Table string
	// Images holds a PNG per figure the cell left open.
	Images [][]byte
	// Files lists the files the cell wrote or changed in /mnt/data.
	Files []KernelFile
	// Truncated says that output was cut to fit the kernel's limits.
	Truncated bool
	// Restored is set on the first cell after the kernel was set aside to
	// free memory and brought back: what came back and what did not.
	Restored *cellext.Restored
	// Reports are what the cell's code told the engine with wb_report, out
	// of band (see sandbox.Result.Reports).
	Reports []Report
}

// ExecError describes an exception raised by a cell.
type ExecError struct {
	Name, Value string
	Traceback   []string
}

// KernelFile describes a file in /mnt/data; Name is relative to /mnt/data.
type KernelFile struct {
	Name    string
	Size    int64
	ModTime time.Time
}

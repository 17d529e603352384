//go:build !amd64 && !arm64

package sandbox

// Other architectures run without the seccomp layer; the self-test and the
// start-up log say so.
const (
	seccompSupported = false
	seccompAuditArch = 0
	seccompX32Bit    = 0
)

var seccompArchDenied []uint32

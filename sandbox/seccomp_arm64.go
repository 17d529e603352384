package sandbox

import "golang.org/x/sys/unix"

const (
	seccompSupported = true
	seccompAuditArch = unix.AUDIT_ARCH_AARCH64
	seccompX32Bit    = 0
)

var seccompArchDenied []uint32

package sandbox

import "golang.org/x/sys/unix"

const (
	seccompSupported = true
	seccompAuditArch = unix.AUDIT_ARCH_X86_64
	// seccompX32Bit marks x32-ABI syscall numbers, which would bypass a
	// filter written for x86-64 numbers.
	seccompX32Bit = 0x40000000
)

var seccompArchDenied = []uint32{unix.SYS_MODIFY_LDT, unix.SYS_USELIB, unix.SYS_IOPL, unix.SYS_IOPERM}

package sandbox

import (
	"encoding/binary"
	"fmt"

	"golang.org/x/sys/unix"
)

// The seccomp program is a denylist, as Flatpak and LibreChat use: default
// allow, EPERM for kernel interfaces a data-analysis kernel never needs (and
// that are a common route to kernel bugs), ENOSYS for clone3 and the new
// mount API so libc falls back to calls whose arguments a filter can see.
// bwrap loads it (--seccomp FD) just before it execs Python.

// seccomp_data offsets (linux/seccomp.h).
const (
	offNr   = 0
	offArch = 4
	offArg0 = 16 // low 32 bits on little-endian machines
	offArg1 = 24
)

// namespaceCloneFlags are the CLONE_NEW* bits that clone(2) accepts in its
// flags word (CLONE_NEWTIME shares a bit with the exit signal there).
const namespaceCloneFlags = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS |
	unix.CLONE_NEWIPC | unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET

// deniedSyscalls return EPERM. Arch files add their own (seccompArchDenied).
var deniedSyscalls = []uint32{
	unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV,
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
	unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD,
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_CHROOT,
	unix.SYS_UNSHARE, unix.SYS_SETNS,
	unix.SYS_ACCT, unix.SYS_QUOTACTL, unix.SYS_SYSLOG,
	unix.SYS_KEXEC_LOAD, unix.SYS_KEXEC_FILE_LOAD,
	unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE,
	unix.SYS_SWAPON, unix.SYS_SWAPOFF, unix.SYS_REBOOT,
	unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
	unix.SYS_NAME_TO_HANDLE_AT, unix.SYS_OPEN_BY_HANDLE_AT,
	unix.SYS_MOVE_PAGES, unix.SYS_MIGRATE_PAGES, unix.SYS_MBIND, unix.SYS_SET_MEMPOLICY,
}

// enosysSyscalls return ENOSYS so callers fall back to an older, filterable call.
var enosysSyscalls = []uint32{
	unix.SYS_CLONE3,
	unix.SYS_OPEN_TREE, unix.SYS_MOVE_MOUNT, unix.SYS_FSOPEN, unix.SYS_FSCONFIG,
	unix.SYS_FSMOUNT, unix.SYS_FSPICK, unix.SYS_MOUNT_SETATTR,
}

// allowedSocketFamilies are what Python needs; with --unshare-net, inet
// sockets reach only the sandbox's own loopback. Everything else (packet,
// netlink, vsock, alg, ...) is kernel surface with no use here.
var allowedSocketFamilies = []uint32{unix.AF_UNIX, unix.AF_INET, unix.AF_INET6}

// bpfInsn is struct sock_filter.
type bpfInsn struct {
	code   uint16
	jt, jf uint8
	k      uint32
}

// asm is a tiny assembler with forward labels for the few jumps we need.
type asm struct {
	prog   []bpfInsn
	labels map[string]int
	fixups []fixup
}

type fixup struct {
	at     int
	label  string
	isTrue bool
}

func (a *asm) emit(code uint16, k uint32) { a.prog = append(a.prog, bpfInsn{code: code, k: k}) }

func (a *asm) load(off uint32) { a.emit(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, off) }

func (a *asm) ret(v uint32) { a.emit(unix.BPF_RET|unix.BPF_K, v) }

func (a *asm) label(name string) { a.labels[name] = len(a.prog) }

// jump emits "if A <op> k goto ifTrue else goto ifFalse"; "" means fall through.
func (a *asm) jump(op uint16, k uint32, ifTrue, ifFalse string) {
	at := len(a.prog)
	a.emit(unix.BPF_JMP|op|unix.BPF_K, k)
	if ifTrue != "" {
		a.fixups = append(a.fixups, fixup{at, ifTrue, true})
	}
	if ifFalse != "" {
		a.fixups = append(a.fixups, fixup{at, ifFalse, false})
	}
}

func (a *asm) resolve() error {
	for _, f := range a.fixups {
		to, ok := a.labels[f.label]
		off := to - f.at - 1
		if !ok || off < 0 || off > 255 {
			return fmt.Errorf("sandbox: seccomp: bad jump to %q", f.label)
		}
		if f.isTrue {
			a.prog[f.at].jt = uint8(off)
		} else {
			a.prog[f.at].jf = uint8(off)
		}
	}
	return nil
}

// seccompProgram assembles the filter for this architecture.
func seccompProgram() ([]bpfInsn, error) {
	a := &asm{labels: map[string]int{}}
	a.load(offArch)
	a.jump(unix.BPF_JEQ, seccompAuditArch, "", "kill")
	a.load(offNr)
	if seccompX32Bit != 0 {
		a.jump(unix.BPF_JSET, seccompX32Bit, "kill", "")
	}
	for _, nr := range append(append([]uint32{}, deniedSyscalls...), seccompArchDenied...) {
		a.jump(unix.BPF_JEQ, nr, "eperm", "")
	}
	for _, nr := range enosysSyscalls {
		a.jump(unix.BPF_JEQ, nr, "enosys", "")
	}
	a.jump(unix.BPF_JEQ, unix.SYS_CLONE, "clone", "")
	a.jump(unix.BPF_JEQ, unix.SYS_SOCKET, "socket", "")
	a.jump(unix.BPF_JEQ, unix.SYS_IOCTL, "ioctl", "")
	a.ret(unix.SECCOMP_RET_ALLOW)

	a.label("clone")
	a.load(offArg0)
	a.jump(unix.BPF_JSET, namespaceCloneFlags, "eperm", "allow")
	a.label("socket")
	a.load(offArg0)
	for _, fam := range allowedSocketFamilies {
		a.jump(unix.BPF_JEQ, fam, "allow", "")
	}
	a.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.EAFNOSUPPORT))
	a.label("ioctl")
	a.load(offArg1)
	a.jump(unix.BPF_JEQ, unix.TIOCSTI, "eperm", "allow")

	a.label("allow")
	a.ret(unix.SECCOMP_RET_ALLOW)
	a.label("eperm")
	a.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM))
	a.label("enosys")
	a.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS))
	a.label("kill")
	a.ret(unix.SECCOMP_RET_KILL_PROCESS)
	if err := a.resolve(); err != nil {
		return nil, err
	}
	return a.prog, nil
}

// seccompBlob is the program in the binary layout bwrap reads from --seccomp.
func seccompBlob() ([]byte, error) {
	prog, err := seccompProgram()
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, 8*len(prog))
	for _, in := range prog {
		out = binary.NativeEndian.AppendUint16(out, in.code)
		out = append(out, in.jt, in.jf)
		out = binary.NativeEndian.AppendUint32(out, in.k)
	}
	return out, nil
}

package sandbox

import (
	"fmt"
	"sync"

	"golang.org/x/sys/unix"
)

// RLIMIT_NPROC is checked when a process forks or starts a thread, against
// the tasks of the process's real uid. When the launcher is root each
// worker runs under a host uid of its own (ownUIDs), so the limit counts one
// worker. A non-root server (the Docker image) cannot switch uids: its
// workers share its uid with the server's threads, with each other and with
// anything else that uid runs on the host. Two limits then apply:
//
//   - the gate's, sharedUIDTasks, is a ceiling for the whole uid: room for
//     as many kernels as the memory budget holds, each at Config.Processes,
//     plus uidHeadroom for the server's threads and the rest. It must never
//     bind in normal use, or workers could not start.
//   - the kernel's own, set by confineTasks once the sandbox's user
//     namespace exists: since Linux 5.14 a process in a user namespace is
//     checked against its own limit for the tasks of that namespace, and
//     against the limit the namespace was created with for the whole uid.
//     So a limit lowered inside the namespace caps one sandbox even though
//     its uid is shared. Older kernels count only per uid, where a tight
//     limit would fail a sandbox's forks whenever the uid ran many tasks;
//     there the ceiling stands alone, and the pids cgroup or the watchdog
//     caps each worker.
//
// A sandbox whose uid maps to host root is not limited at all: the kernel
// skips the check for root's user. That is why a root launcher gives each
// worker a uid of its own; without one (setpriv missing, a partial uid map)
// only the pids cgroup or the watchdog caps the tasks.

// uidHeadroom is the room sharedUIDTasks leaves for the server's own
// threads and anything else its uid runs.
const uidHeadroom = 512

// sharedUIDTasks is RLIMIT_NPROC for a worker that shares its uid. The
// kernels the budget holds are counted at the size the pool assumes before
// it has measured one, plus those being started.
func sharedUIDTasks(c Config) uint64 {
	kernels := c.MemoryBudget/defaultKernelSize + int64(c.MaxWarm+c.RefillParallel)
	return uint64(int64(c.Processes)*kernels + uidHeadroom)
}

// templateTasks is RLIMIT_NPROC of the template kernels fork from (fork.go):
// a ceiling for its uid, which all its forks share, as sharedUIDTasks is for
// a shared uid, but counting forks at the smallest size one can have. The
// limit a user namespace is created with caps its creator's uid one level
// up, so each fork's own limit is set inside its namespace (forkserver.py),
// and this one must hold them all.
// It never exceeds the launcher's own hard limit, which a launcher without
// CAP_SYS_RESOURCE (root in most containers) cannot raise.
func templateTasks(c Config) uint64 {
	kernels := c.MemoryBudget/forkedKernelFloor + int64(c.MaxWarm+c.RefillParallel)
	n := uint64(int64(c.Processes)*kernels + uidHeadroom)
	var own unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NPROC, &own) == nil && own.Max < n {
		n = own.Max
	}
	return n
}

// forkedKernelFloor is less than a fork of the template costs when it starts.
const forkedKernelFloor = 4 << 20

// sandboxTasks is the kernel's RLIMIT_NPROC: Config.Processes less one for
// the outer bwrap process, which counts against the resource group (pids
// cgroup or watchdog) but runs outside the sandbox's user namespace. So the
// kernel refuses the fork that would take the group over its limit, and the
// session survives with EAGAIN instead of being killed.
func sandboxTasks(c Config) uint64 { return uint64(c.Processes - 1) }

// namespacedNPROC reports whether the kernel counts RLIMIT_NPROC per user
// namespace (Linux 5.14 and later).
var namespacedNPROC = sync.OnceValue(func() bool {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return false
	}
	var major, minor int
	if _, err := fmt.Sscanf(unix.ByteSliceToString(u.Release[:]), "%d.%d", &major, &minor); err != nil {
		return false
	}
	return major > 5 || major == 5 && minor >= 14
})

// confineTasks sets the kernel's RLIMIT_NPROC (soft and hard, so user code
// cannot raise it) on a sandbox's Python that shares its uid, before it
// runs any user code. A worker with a uid of its own needs no more than the
// gate's limit, which counts only it; and the launcher could not change it
// anyway (a root launcher in a container lacks CAP_SYS_RESOURCE).
func confineTasks(pid int, ownUID bool, c Config) error {
	if ownUID || c.Isolation != IsolationBwrap || !namespacedNPROC() {
		return nil
	}
	if pid <= 0 {
		return fmt.Errorf("sandbox: limit tasks: the kernel's pid is unknown")
	}
	lim := unix.Rlimit{Cur: sandboxTasks(c), Max: sandboxTasks(c)}
	if err := unix.Prlimit(pid, unix.RLIMIT_NPROC, &lim, nil); err != nil {
		return fmt.Errorf("sandbox: limit tasks: %w", err)
	}
	return nil
}

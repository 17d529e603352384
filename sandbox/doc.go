// Package sandbox runs untrusted Python for the local engine: a pool of
// pre-warmed, isolated workers, each of which becomes one conversation's
// persistent kernel (what a Foundry Code Interpreter session is in the cloud).
//
// A worker is Debian's /usr/bin/python3 running the embedded worker.py, with
// pandas, numpy, matplotlib (Agg), seaborn, scipy and openpyxl imported
// before it is offered (and scikit-learn and statsmodels too when it forks
// from the template, see below). Go and the worker speak a small framed protocol over
// pipes; files move through it too, so the host never opens a path the
// sandbox controls. A Pool keeps Config.Warm workers ready, more after a
// rush (up to Config.MaxWarm, within the memory budget; see demand.go), and
// refills in the background; Pool.Session claims one. Workers are never reused: when a
// session ends its sandbox is killed and forgotten.
//
// # Isolation
//
// With Config.Isolation "bwrap" (the default) every worker gets, in order:
//
//   - a gate: /bin/sh waits until the launcher has applied rlimits (address
//     space, processes, file size, open files, core, memlock, CPU time) and
//     moved it into the worker's resource group, then execs the rest;
//   - when the launcher is root, a host uid of its own (setpriv), far above
//     ordinary uids, so RLIMIT_NPROC counts only that worker; otherwise
//     (a non-root server, as in the Docker image) RLIMIT_NPROC is lowered
//     inside the sandbox's user namespace, which Linux 5.14 and later count
//     per namespace, so it caps one sandbox although the uid is shared (see
//     nproc.go);
//   - bubblewrap: new user, pid, net (loopback only), ipc, uts, cgroup and
//     mount namespaces, uid 65534 inside, no nested user namespaces,
//     die-with-parent, a new session, a cleared environment, read-only
//     binds of only what Python needs of /usr (its sys.path, the shared
//     libraries the interpreter and its extension modules link, matplotlib's
//     data, its fonts, time zones; derived from the configured Python on the
//     first start, see mounts.go) and a handful of /etc files, size-capped
//     tmpfs for /tmp, /dev/shm and /mnt/data, and a seccomp denylist
//     (ptrace, bpf, keyctl, io_uring, mount, unshare, namespace clones,
//     exotic socket families, ...);
//   - a resource group: cgroup v2 when this process has a delegated subtree,
//     else cgroup v1 (memory, pids, cpu), else a watchdog that polls the
//     worker's process tree and kills it over the memory or task limit.
//
// Kernels normally do not start Python at all: they fork from a template
// (fork.go, forkserver.py), a process started with the recipe above (with
// nested user namespaces allowed and no seccomp filter, as it runs no user
// code) that has imported the data stack and the modelling libraries once.
// Each fork then makes user, mount, pid, net, ipc and uts namespaces of its
// own, mounts its own /proc, /mnt/data, /tmp, /dev/shm and /dev/pts, sets
// its task limit in its own user namespace, joins its own resource group,
// and drops every capability and loads the seccomp filter before the kernel
// runs. The template's root and /dev, which every fork sees, are read-only
// (in every sandbox: bwrap remounts them last), so the only places a kernel
// writes are its own tmpfs mounts; a fork whose mounts do not check out is
// discarded, and a template whose forks keep failing is replaced (heal.go).
// fork.go says what forks still share and why that is safe. A fork is ready in milliseconds and shares the imported modules copy
// on write, so the budget charges it only the memory it alone holds. Where
// forking cannot work (Linux before 5.14, nested user namespaces refused,
// Config.NoFork) every worker starts as described above.
//
// Pool.SelfTest proves the recipe from inside a throwaway sandbox, and that
// the data stack imports and draws CJK text there. When it fails the pool
// refuses to run code (ErrIsolationUnavailable) unless isolation "none" was
// chosen, which runs Python directly under rlimits and the resource group
// only, for development machines without user namespaces, and logs a
// warning for every session.
//
// # Replies
//
// worker.py caps output, figures and listings itself, but user code runs in
// its interpreter and can replace any of it. So the host holds every reply
// to Config's caps again while it reads it: a frame is refused on its length
// prefix before its body is read, buffers grow as bytes arrive, figures are
// counted and sized, listings counted as they are decoded, and text fields
// cut to MaxOutputBytes (Result.Truncated says so). A reply over a cap ends
// the session with a *LimitError that names the limit.
//
// Host needs: bubblewrap >= 0.8, /bin/sh, util-linux's setpriv when running
// as root, unprivileged user namespaces, and a merged /usr (/lib a link to
// usr/lib, as on Debian 12).
package sandbox

// Package sandbox runs untrusted Python for the local engine: a pool of
// pre-warmed, isolated workers, each of which becomes one conversation's
// persistent kernel (what a Foundry Code Interpreter session is in the cloud).
//
// A worker is Debian's /usr/bin/python3 running the embedded worker.py, with
// pandas, numpy, matplotlib (Agg), seaborn, scipy and openpyxl imported
// before it is offered. Go and the worker speak a small framed protocol over
// pipes; files move through it too, so the host never opens a path the
// sandbox controls. A Pool keeps Config.Warm workers ready and refills in the
// background; Pool.Session claims one. Workers are never reused: when a
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
//     ordinary uids, so RLIMIT_NPROC counts only that worker;
//   - bubblewrap: new user, pid, net (loopback only), ipc, uts, cgroup and
//     mount namespaces, uid 65534 inside, no nested user namespaces,
//     die-with-parent, a new session, a cleared environment, read-only /usr
//     and a handful of /etc files, size-capped tmpfs for /tmp, /dev/shm and
//     /mnt/data, and a seccomp denylist (ptrace, bpf, keyctl, io_uring,
//     mount, unshare, namespace clones, exotic socket families, ...);
//   - a resource group: cgroup v2 when this process has a delegated subtree,
//     else cgroup v1 (memory, pids, cpu), else a watchdog that polls the
//     worker's process tree and kills it over the memory or task limit.
//
// Pool.SelfTest proves the recipe from inside a throwaway sandbox. When it
// fails the pool refuses to run code (ErrIsolationUnavailable) unless
// isolation "none" was chosen, which runs Python directly under rlimits and
// the resource group only, for development machines without user
// namespaces, and logs a warning for every session.
//
// Host needs: bubblewrap >= 0.8, /bin/sh, util-linux's setpriv when running
// as root, and unprivileged user namespaces.
package sandbox

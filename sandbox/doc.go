// Package sandbox runs untrusted Python for the local engine: a pool of
// pre-warmed, isolated workers, each of which becomes one conversation's
// persistent kernel (what a Foundry Code Interpreter session is in the cloud).
//
// A worker is Debian's /usr/bin/python3 running the embedded worker.py inside
// bubblewrap (new user, pid, net, ipc, uts and mount namespaces; an
// unprivileged uid; read-only /usr; size-capped tmpfs for /tmp and /mnt/data;
// a seccomp denylist), under rlimits and, where the host allows, a cgroup
// with memory, pids and cpu limits. Go and the worker speak a small framed
// protocol over pipes; files move through it too, so the host never opens a
// path the sandbox controls.
//
// A Pool keeps Config.Warm workers ready; Pool.Session claims one. Workers
// are never reused: when a session ends its sandbox is killed and the pool
// starts a fresh one in the background.
package sandbox

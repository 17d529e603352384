"""Template of the sandbox's kernels: a fork server.

The Go side (sandbox/fork.go) starts this script in a bubblewrap sandbox of
its own, as it starts worker.py, with CAP_SYS_ADMIN in that sandbox's user
namespace and no seccomp filter. It imports the data stack once, freezes the
heap and reports ready on stdout; then every kernel is a fork of it, sharing
the imported modules copy-on-write, and each fork puts itself in namespaces
of its own before any user code runs:

  template (this process; runs only this file, never user code)
   └ C1  unshare(user, mount, pid, net, ipc, uts), maps uid and gid 65534
      │  to itself, forks C2 and exits
      └ C2  pid 1 of the new pid namespace: sets the kernel's task limit
         │  (counted in the new user namespace), mounts its own /proc (and
         │  puts back any read-only covers bwrap had made there), a fresh
         │  /mnt/data, /tmp, /dev/shm and /dev/pts, sets the hostname, brings
         │  up loopback, reports its pid to Go (SCM_CREDENTIALS, which the
         │  kernel translates to the host's pid) and waits for "go": Go puts
         │  it in the kernel's cgroup meanwhile. Then it drops every
         │  capability, sets no_new_privs, loads the seccomp filter, forks C3
         │  and reaps, exiting with C3 (which ends the namespace).
         └ C3  the kernel, pid 2, as under bwrap: worker.py's serve loop.

So a kernel cannot see, signal or read another kernel or the template (its
own pid namespace and /proc), cannot reach their files (its own tmpfs
mounts; everything else is the template's read-only view of /usr), cannot
undo its mounts (no capabilities, and seccomp refuses mount, umount2,
unshare and setns), and shares no network or IPC. The template removes any
covers bwrap made on its /proc (bwrap covers /proc/sys and a few others
only where they are writable), because the kernel refuses a new /proc while
the only visible one is partly covered ("mount too revealing").

Its arguments are worker.py's (the data directory, then a descriptor: here
the control socket, a SOCK_SEQPACKET). Requests come on the control socket: one JSON
message with six descriptors: the kernel's protocol stdin and stdout, its
stderr, its interrupt pipe, the seccomp program, and a reply socket on which
C2 reports and Go answers.
"""

import array
import ctypes
import gc
import json
import os
import resource
import socket
import struct
import sys

sys.path.insert(0, "/opt")
import worker  # noqa: E402  (beside this file in the sandbox)

libc = ctypes.CDLL(None, use_errno=True)

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
MNT_DETACH = 2
CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x20000, 0x4000000, 0x8000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP = 4, 38, 22
SECCOMP_MODE_FILTER = 2
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 1
SANDBOX_ID = 65534
KERNEL_FD_INTR = 6  # worker.py's interrupt pipe, as under bwrap
PROC_COVERS = []    # the /proc covers bwrap made, removed here, put back in each kernel
SHARED_READ_ONLY = ("/", "/dev")  # the template's tmpfs that every fork sees: never writable
OWN_MOUNTS = (worker.DATA, "/tmp", "/dev/shm")  # each kernel's own tmpfs, the only places it writes
TEMPLATE_DEVS = set()  # every device mounted in the template: a kernel's own mounts are none of them


def check(ret, what):
    if ret != 0:
        e = ctypes.get_errno()
        raise OSError(e, "%s: %s" % (what, os.strerror(e)))


def mount(src, target, fstype, flags, data=None):
    enc = lambda s: s.encode() if s is not None else None  # noqa: E731
    check(libc.mount(enc(src), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)), "mount " + target)


def proc_covers():
    """The mount points below /proc, deepest first."""
    with open("/proc/self/mountinfo") as f:
        points = [line.split()[4] for line in f if line.split()[4].startswith("/proc/")]
    return sorted(points, key=len, reverse=True)


def uncover_proc():
    for point in proc_covers():
        check(libc.umount2(point.encode(), MNT_DETACH), "umount " + point)
        PROC_COVERS.append(point)
    if proc_covers():
        raise OSError("/proc is still covered: %s" % proc_covers())


class CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def drop_capabilities():
    """Empty the effective, permitted and inheritable sets (and so the ambient one)."""
    check(libc.capset(ctypes.byref(CapHeader(0x20080522, 0)), (CapData * 2)()), "capset")


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def confine(seccomp_fd):
    """What bwrap does last before it execs: no_new_privs, no capabilities, the filter."""
    check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    drop_capabilities()
    prog = b""
    while True:
        chunk = os.read(seccomp_fd, 1 << 16)
        if not chunk:
            break
        prog += chunk
    os.close(seccomp_fd)
    if prog:  # /dev/null when the pool runs without the filter
        buf = ctypes.create_string_buffer(prog, len(prog))
        fprog = SockFprog(len(prog) // 8, ctypes.cast(buf, ctypes.c_void_p))
        check(libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0), "seccomp")


def loopback_up():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        import fcntl
        ifr = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(s, SIOCGIFFLAGS, ifr))[1]
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))
    finally:
        s.close()


def own_mounts(req):
    """C2's view: a /proc of its pid namespace and writable places of its own,
    none of which runs programs (the data stack needs no executable files)."""
    private = MS_NOSUID | MS_NODEV | MS_NOEXEC
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    mount("proc", "/proc", "proc", private)
    for point in reversed(PROC_COVERS):  # shallowest first, as bwrap made them
        if os.path.exists(point):
            mount(point, point, None, MS_BIND | MS_REC)
            mount(None, point, None, MS_BIND | MS_REMOUNT | MS_RDONLY | private)
    mount("tmpfs", "/tmp", "tmpfs", private, "size=%d,mode=1777" % req["tmp"])
    os.mkdir(worker_mpl_dir(), 0o700)
    mount("tmpfs", "/dev/shm", "tmpfs", private, "size=%d,mode=1777" % req["shm"])
    mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=620")
    mount("tmpfs", worker.DATA, "tmpfs", private, "size=%d,mode=755" % req["data"])
    os.chdir(worker.DATA)


def visible_mounts():
    """Mount point -> (device, root within its filesystem, type) of the mount
    seen there (the last one made)."""
    seen = {}
    with open("/proc/self/mountinfo") as f:
        for line in f:
            fields = line.split()
            sep = fields.index("-")
            seen[fields[4]] = (fields[2], fields[3], fields[sep + 1])
    return seen


def check_read_only(paths):
    for path in paths:
        if not os.statvfs(path).f_flag & os.ST_RDONLY:
            raise OSError("%s is writable, and every kernel would share it" % path)


def check_own_mounts():
    """A fork becomes a kernel only on mounts of its own: each writable place
    a tmpfs this fork made (not the template's), reached by its own path with
    no link on the way, and the shared / and /dev read-only. Go discards a
    fork that fails here."""
    check_read_only(SHARED_READ_ONLY)
    seen, devs = visible_mounts(), set()
    for path in OWN_MOUNTS:
        dev, root, kind = seen.get(path, ("", "", ""))
        st = os.stat(path)
        fresh = "%d:%d" % (os.major(st.st_dev), os.minor(st.st_dev)) == dev and dev not in TEMPLATE_DEVS | devs
        if os.path.realpath(path) != path or kind != "tmpfs" or root != "/" or not fresh:
            raise OSError("%s is not a tmpfs of this kernel's own (%s %s at %s)" % (path, kind, dev, root))
        devs.add(dev)


def limit_user_counters(req):
    """Caps, in the kernel's own user namespace, on what Linux counts per user:
    the counts of every fork meet at the template's host uid (fork.go)."""
    for name, value in (("max_inotify_instances", req["inotify"]), ("max_inotify_watches", req["watches"])):
        with open("/proc/sys/user/" + name, "w") as f:
            f.write(str(value))


def worker_mpl_dir():
    return os.environ.get("MPLCONFIGDIR", "/tmp/mpl")


def report(reply, msg, creds=False):
    ancillary = []
    if creds:
        ancillary = [(socket.SOL_SOCKET, socket.SCM_CREDENTIALS, struct.pack("iII", os.getpid(), os.getuid(), os.getgid()))]
    reply.sendmsg([json.dumps(msg).encode()], ancillary)


def first_child(req, fds, reply):
    """C1: the kernel's task limit and namespaces, then C2."""
    if req.get("fault") == "unshare":
        raise OSError("a fault the tests asked for")
    uid, gid = os.getuid(), os.getgid()  # after unshare they read as unmapped
    check(libc.unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS),
          "unshare")
    with open("/proc/self/setgroups", "w") as f:
        f.write("deny")
    with open("/proc/self/uid_map", "w") as f:
        f.write("%d %d 1" % (SANDBOX_ID, uid))
    with open("/proc/self/gid_map", "w") as f:
        f.write("%d %d 1" % (SANDBOX_ID, gid))
    if os.fork() == 0:
        init(req, fds, reply)
    os._exit(0)


def init(req, fds, reply):
    """C2: the namespace's init; never returns."""
    os.setsid()
    # The kernel's own task limit, counted in its own user namespace. Set it
    # only now: the limit a namespace is created with caps its creator's uid
    # one level up, where the template and every kernel count together.
    n = req["nproc"]
    resource.setrlimit(resource.RLIMIT_NPROC, (n, n))
    limit_user_counters(req)  # through the template's /proc, before this namespace's covers it
    own_mounts(req)
    if req.get("fault") == "mounts":  # as if /mnt/data were the template's, or anything else
        mount("/usr", worker.DATA, None, MS_BIND | MS_REC)
    check_own_mounts()
    socket.sethostname("sandbox")
    loopback_up()
    check(libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0), "dumpable")  # the kernel may not read its init's memory
    report(reply, {"op": "spawned"}, creds=True)
    if reply.recv(64) != b"go":
        os._exit(1)
    confine(fds[4])
    keep = set(fds) | {reply.fileno(), 0, 1, 2}
    for fd in map(int, os.listdir("/proc/self/fd")):  # the template's own pipes to Go, above all
        if fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass  # the listing's own descriptor
    kernel = os.fork()
    if kernel == 0:
        kernel_main(req, fds, reply)
    reply.close()
    for fd in fds[:4]:
        os.close(fd)
    while True:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            os._exit(1)
        if pid == kernel:
            os._exit(os.waitstatus_to_exitcode(status) & 0xFF)


def kernel_main(req, fds, reply):
    """C3: worker.py's kernel on the descriptors Go gave, nothing else open."""
    reply.close()
    check(libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), "dumpable")
    for target, fd in zip((0, 1, 2, KERNEL_FD_INTR), fds[:4]):
        os.dup2(fd, target)
    os.closerange(3, KERNEL_FD_INTR)
    os.closerange(KERNEL_FD_INTR + 1, 1 << 16)
    try:
        import numpy
        numpy.random.seed()  # forks share the template's state; random reseeds itself at fork
    except ImportError:
        pass
    import multiprocessing
    # The key multiprocessing's connections authenticate with, inherited
    # from the template otherwise: one kernel would know every other's.
    multiprocessing.current_process().authkey = os.urandom(32)
    restore_environ()
    worker.INTR_FD = KERNEL_FD_INTR
    code = 0
    try:
        if req.get("probe"):
            worker.run_probe()
        else:
            worker.serve_kernel(warmed=True)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except BaseException:
        code = 1
    os._exit(code)


def restore_environ():
    """What the sandbox set; the imports added their own (sklearn's KMP_*).
    Only what differs is changed: each change copies pages of the shared heap."""
    for name in [name for name in os.environ if name not in ENVIRON]:
        del os.environ[name]
    for name, value in ENVIRON.items():
        if os.environ.get(name) != value:
            os.environ[name] = value


def spawn(req, fds):
    reply = socket.socket(fileno=fds[5])
    pid = os.fork()
    if pid == 0:
        try:
            CONTROL.close()
            first_child(req, fds, reply)
        except BaseException as e:  # noqa: BLE001 — told to Go, which fails the start
            try:
                report(reply, {"op": "fatal", "error": "%s: %s" % (type(e).__name__, e)})
            finally:
                os._exit(1)
    reply.close()
    for fd in fds[:5]:
        os.close(fd)
    os.waitpid(pid, 0)


def serve():
    while True:
        fds = array.array("i")
        msg, ancdata, _flags, _addr = CONTROL.recvmsg(1 << 16, socket.CMSG_SPACE(8 * fds.itemsize))
        if not msg:
            return  # Go closed its end: the pool is closing
        for level, kind, data in ancdata:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds.frombytes(data[:len(data) - len(data) % fds.itemsize])
        if len(fds) != 6:
            for fd in fds:
                os.close(fd)
            continue
        spawn(json.loads(msg), list(fds))


def preload():
    """What every kernel should find imported: the data stack (worker.py's
    warm-up), and the modelling libraries where installed, which cost the
    template once and each kernel nothing."""
    worker.warm_up()
    for name in ("sklearn", "sklearn.linear_model", "sklearn.ensemble", "sklearn.model_selection",
                 "statsmodels.api", "statsmodels.formula.api"):
        try:
            __import__(name)
        except ImportError:
            pass
    # matplotlib empties its font cache in every fork (an at-fork handler),
    # freeing the fonts the warm-up opened: in the first child of each fork,
    # on pages shared with the template, each a copy. Empty it here once; the
    # kernels would have found it empty anyway.
    font_manager = sys.modules.get("matplotlib.font_manager")
    if font_manager is not None:
        font_manager._get_font.cache_clear()


def main():
    global CONTROL
    CONTROL = socket.socket(fileno=int(sys.argv[2]))
    conn = worker.Conn(os.dup(0), os.dup(1))
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    try:
        uncover_proc()
        check_read_only(SHARED_READ_ONLY)  # bwrap made them so (bwrap.go); no fork without it
        TEMPLATE_DEVS.update(dev for dev, _, _ in visible_mounts().values())
        preload()
        drop_capabilities()  # the forks get theirs from their own user namespace
    except BaseException as e:
        conn.send_json({"op": "fatal", "error": "%s: %s" % (type(e).__name__, e)})
        raise
    gc.collect()
    gc.freeze()  # collections in the forks leave the shared heap alone
    conn.send_json({"op": "ready"})
    serve()


CONTROL = None
ENVIRON = dict(os.environ)

if __name__ == "__main__":
    main()

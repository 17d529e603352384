package sandbox

import (
	"slices"
	"strconv"
	"strings"
)

// Paths inside the sandbox.
const (
	dataDir     = "/mnt/data"
	workerPath  = "/opt/worker.py"
	forkPath    = "/opt/forkserver.py" // the template kernels fork from (fork.go)
	vegaPath    = "/opt/vegalite.py"   // beside workerPath: worker.py loads it from there
	mplDir      = "/tmp/mpl"
	sandboxUID  = "65534"
	shmBytes    = 64 << 20 // size of /dev/shm
	fdGate      = 3        // ExtraFiles[0]: the gate the launcher opens after applying limits
	fdSeccomp   = 4        // ExtraFiles[1]
	fdStatus    = 5        // ExtraFiles[2]: bwrap's --json-status-fd
	fdStatusArg = "5"
	fdIntrArg   = "6" // ExtraFiles[3]: interrupt markers, read by worker.py; the template's control socket
)

// etcFiles are the only host /etc entries Python and its libraries need:
// Debian routes BLAS/LAPACK through alternatives, matplotlib refuses to
// import without its rc file, fontconfig wants its config.
var etcFiles = []string{
	"/etc/alternatives", "/etc/matplotlibrc", "/etc/fonts", "/etc/ld.so.cache", "/etc/localtime",
	"/etc/mime.types",
}

// sandboxEnv is the whole environment of a worker; nothing of the host's
// environment (tokens, keys) crosses over.
func sandboxEnv(home, mplConfig string) []string {
	return []string{
		"PATH=/usr/bin:/bin",
		"HOME=" + home,
		"LANG=C.UTF-8",
		"MPLBACKEND=Agg",
		"MPLCONFIGDIR=" + mplConfig,
		"XDG_CACHE_HOME=" + mplConfig + "/cache", // keeps fontconfig's cache out of /mnt/data
		// One thread per BLAS: less memory, and no thread pools to fight
		// over the session's CPU quota.
		"OPENBLAS_NUM_THREADS=1", "OMP_NUM_THREADS=1", "MKL_NUM_THREADS=1",
	}
}

// bwrapArgs is the argv of the isolation recipe (reference/sandbox.md §3a),
// without a shell. Of the host's /usr it binds only what Python needs (see
// mounts.go), read-only.
//
// For the template (fork.go) the recipe differs in three ways, each needed
// to make a kernel's namespaces from inside: CAP_SYS_ADMIN in the sandbox's
// user namespace (to remove bwrap's /proc covers; the template drops it
// after), nested user namespaces allowed, and no seccomp filter (each fork
// loads it before it runs the kernel). The template runs forkserver.py only.
func bwrapArgs(c Config, a *assets, template bool) ([]string, error) {
	m, err := a.binds(c.Python)
	if err != nil {
		return nil, err
	}
	args := []string{
		c.Bwrap,
		"--unshare-all", "--unshare-user", "--uid", sandboxUID, "--gid", sandboxUID,
		"--cap-drop", "ALL",
	}
	if template {
		args = append(args, "--cap-add", "CAP_SYS_ADMIN")
	} else {
		args = append(args, "--disable-userns")
	}
	args = append(args, "--die-with-parent", "--new-session", "--clearenv")
	for _, kv := range sandboxEnv(dataDir, mplDir) {
		k, v, _ := strings.Cut(kv, "=")
		args = append(args, "--setenv", k, v)
	}
	for _, p := range slices.Concat(m.dirs, m.files) {
		args = append(args, "--ro-bind", p, p)
	}
	args = append(args,
		"--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
		"--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin",
	)
	for _, f := range etcFiles {
		args = append(args, "--ro-bind-try", f, f)
	}
	args = append(args,
		"--ro-bind", a.path("passwd"), "/etc/passwd",
		"--ro-bind", a.path("group"), "/etc/group",
		"--ro-bind", a.path("hosts"), "/etc/hosts",
		"--ro-bind", a.path("worker.py"), workerPath,
		"--ro-bind", a.path("vegalite.py"), vegaPath,
		"--ro-bind", a.path("forkserver.py"), forkPath,
		"--proc", "/proc", "--dev", "/dev",
		// bwrap's /dev is an uncapped tmpfs; give /dev/shm (multiprocessing's
		// semaphores) a small one of its own.
		"--size", strconv.FormatInt(shmBytes, 10), "--perms", "1777", "--tmpfs", "/dev/shm",
		"--size", strconv.FormatInt(c.TmpBytes, 10), "--perms", "1777", "--tmpfs", "/tmp",
		"--dir", mplDir,
	)
	if a.fontlist != "" {
		args = append(args, "--ro-bind", a.path("mpl/"+a.fontlist), mplDir+"/"+a.fontlist)
	}
	args = append(args,
		"--size", strconv.FormatInt(c.DataBytes, 10), "--tmpfs", dataDir,
		// The tmpfs bwrap makes for / and /dev (their directories and mount
		// points) read-only, last: under them a kernel writes only to its
		// own mounts above. A fork shares its template's / and /dev, so a
		// writable one would be a place every kernel reads (issue 35).
		"--remount-ro", "/dev", "--remount-ro", "/",
		"--chdir", dataDir, "--hostname", "sandbox",
		"--json-status-fd", fdStatusArg,
	)
	if template {
		return append(args, "--", c.Python, "-I", forkPath, dataDir, fdIntrArg), nil
	}
	if a.seccomp != "" {
		args = append(args, "--seccomp", strconv.Itoa(fdSeccomp))
	}
	return append(args, "--", c.Python, "-I", workerPath, dataDir, fdIntrArg), nil
}

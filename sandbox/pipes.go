package sandbox

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
)

// pipes are the descriptors one worker start needs.
type pipes struct {
	inR, inW         *os.File // protocol: Go -> worker
	outR, outW       *os.File // protocol: worker -> Go
	gateR, gateW     *os.File
	statusR, statusW *os.File
	errR, errW       *os.File // start-up diagnostics; read by our own goroutine, so Wait never waits on it
	intrR, intrW     *os.File // interrupt markers (see worker.interrupt)
	seccomp          *os.File // the BPF program, or /dev/null
}

func newPipes() (*pipes, error) {
	f := &pipes{}
	for _, pair := range []struct{ r, w **os.File }{
		{&f.inR, &f.inW}, {&f.outR, &f.outW}, {&f.gateR, &f.gateW}, {&f.statusR, &f.statusW}, {&f.errR, &f.errW}, {&f.intrR, &f.intrW},
	} {
		r, w, err := os.Pipe()
		if err != nil {
			f.closeAll()
			return nil, fmt.Errorf("sandbox: pipe: %w", err)
		}
		*pair.r, *pair.w = r, w
	}
	return f, nil
}

func (f *pipes) openSeccomp(path string) error {
	if path == "" {
		path = os.DevNull
	}
	file, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("sandbox: seccomp: %w", err)
	}
	f.seccomp = file
	return nil
}

// closeChildEnds closes the descriptors only the child needs, once it has them.
func (f *pipes) closeChildEnds() {
	closeFiles(f.inR, f.outW, f.gateR, f.statusW, f.errW, f.intrR, f.seccomp)
}

func (f *pipes) closeAll() {
	f.closeChildEnds()
	closeFiles(f.inW, f.outR, f.gateW, f.statusR, f.errR, f.intrW)
}

func closeFiles(fs ...*os.File) {
	for _, f := range fs {
		if f != nil {
			f.Close()
		}
	}
}

// tailBuffer keeps the last max bytes written: a worker's start-up stderr,
// for the error message when it fails to start.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

// Write keeps the tail of p; it never fails.
func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

// String returns what is kept.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// Host uids for workers when the launcher is root: one per live worker, so
// RLIMIT_NPROC counts only that worker's processes and no two sessions share
// a uid. The range is far above ordinary and subordinate uids.
const (
	uidBase  = 2_100_000_000
	uidRange = 1 << 16
)

var uids = struct {
	sync.Mutex
	next uint32
	used map[uint32]bool
}{next: rand.Uint32N(uidRange), used: map[uint32]bool{}}

// ownUIDs reports whether workers can get host uids of their own: the
// launcher is root and its user namespace maps the whole uid range (a
// rootless container may map far fewer uids).
var ownUIDs = sync.OnceValue(func() bool {
	if os.Geteuid() != 0 {
		return false
	}
	b, err := os.ReadFile("/proc/self/uid_map")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		var inside, outside, count uint64
		if _, err := fmt.Sscan(line, &inside, &outside, &count); err == nil &&
			inside <= uidBase && inside+count >= uidBase+uidRange {
			return true
		}
	}
	return false
})

func allocUID() uint32 {
	uids.Lock()
	defer uids.Unlock()
	for {
		u := uidBase + uids.next%uidRange
		uids.next++
		if !uids.used[u] {
			uids.used[u] = true
			return u
		}
	}
}

func freeUID(u uint32) {
	uids.Lock()
	defer uids.Unlock()
	delete(uids.used, u)
}

package purge

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/store"
)

// Remote deletes objects in Foundry; *foundry.Client satisfies it. A 404
// (foundry.IsNotFound) means the object is already gone.
type Remote interface {
	DeleteFile(ctx context.Context, id string) error
	DeleteConversation(ctx context.Context, id string) error
	DeleteContainerFile(ctx context.Context, containerID, fileID string) error
	DeleteAgentVersion(ctx context.Context, name, version string) error
	DeleteAgent(ctx context.Context, name string) error
	DeleteResponse(ctx context.Context, id string) error
}

// Lister lists what Foundry holds, to find what no local row knows;
// *foundry.Client satisfies it.
type Lister interface {
	Files(ctx context.Context) ([]foundry.File, error)
	Conversations(ctx context.Context) ([]foundry.Conversation, error)
	AgentVersions(ctx context.Context, name string) ([]foundry.AgentVersion, error)
}

// Blobs removes stored bytes by sha256 and lists them for the orphan
// sweep; every files.BlobStore satisfies it. Removing a missing blob must
// not be an error.
type Blobs interface {
	Remove(ctx context.Context, sha string) error
	Walk(ctx context.Context, fn func(files.BlobInfo) error) error
}

// Config configures a Service. DB, Remote and Blobs are required.
type Config struct {
	DB     *store.DB
	Remote Remote
	Blobs  Blobs
	// Lister finds orphan Foundry files and offers unknown conversations
	// and unused agent versions; nil leaves Foundry out of orphan searches.
	Lister Lister
	// Tag is the metadata every Foundry conversation and agent version the
	// app creates carries. Only tagged conversations, and tagged or recorded
	// agent versions, are offered as orphans: a project shared with other
	// apps never sees theirs offered for deletion. Files have no metadata;
	// the database remembers the ones the app uploaded (see
	// store.UnknownFoundryFiles). An empty Tag offers no conversation.
	Tag map[string]string
	// OrphanGrace spares objects younger than this from orphan searches:
	// an upload writes its blob (or Foundry file) before the row that names
	// it. Zero means an hour; negative means no grace at all.
	OrphanGrace time.Duration
	// MinBackoff and MaxBackoff bound the wait before retrying a failed
	// entry; zero means 2 s and 1 h.
	MinBackoff, MaxBackoff time.Duration
	// Parallel bounds concurrent remote deletions; zero means 4.
	Parallel int
	// ClaimLease is how long the entries a worker takes stay its own (see
	// store.ClaimOutbox) before another worker may take them, should it
	// stall or die; zero means 4 minutes. Shorter, an entry whose attempt
	// is slow may be tried twice, which deletions bear (a second one finds
	// nothing: not_found).
	ClaimLease time.Duration
	// Logger receives failures; nil discards.
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Service plans and executes purges and runs the outbox worker.
type Service struct {
	cfg  Config
	db   *store.DB
	log  *slog.Logger
	now  func() time.Time
	wake chan struct{}
	// work serializes worker passes, so Run and Drain in one process never
	// handle the same entry at once.
	work sync.Mutex
	// claimsChecked is set, under work, once releaseDeadClaims has run.
	claimsChecked bool
	// write serializes this worker's own writes: concurrent BEGIN
	// IMMEDIATEs would meet SQLite's busy handler, which sleeps for
	// milliseconds at a time, where a mutex hands over in microseconds.
	write sync.Mutex
	// batch is how many conversations one transaction deletes (batchSize;
	// tests make it small); afterBatch, when a test sets it, runs after
	// each local batch.
	batch      int
	afterBatch func()
}

// batchSize is how many conversations one transaction deletes: large enough
// to amortize the commit, small enough that the write lock is held for
// milliseconds and the app's own writes never hit the busy timeout.
const batchSize = 100

// New returns a Service.
func New(cfg Config) *Service {
	switch {
	case cfg.OrphanGrace == 0:
		cfg.OrphanGrace = time.Hour
	case cfg.OrphanGrace < 0:
		cfg.OrphanGrace = 0
	}
	if cfg.MinBackoff == 0 {
		cfg.MinBackoff = 2 * time.Second
	}
	if cfg.MaxBackoff == 0 {
		cfg.MaxBackoff = time.Hour
	}
	if cfg.Parallel <= 0 {
		cfg.Parallel = 4
	}
	if cfg.ClaimLease <= 0 {
		cfg.ClaimLease = defaultClaimLease
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{cfg: cfg, db: cfg.DB, log: log, now: cfg.Now, wake: make(chan struct{}, 1), batch: batchSize}
}

// kick tells a running worker that new entries are queued.
func (s *Service) kick() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

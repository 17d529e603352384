package store

import (
	"context"
	"database/sql/driver"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
)

// Servers sharing a PostgreSQL database tell each other what changed with
// pg_notify, sent in the transaction that changed it: a run event stored
// (channel run_events, payload "<run id>:<seq>"), a Stop asked of a run
// (run_cancel, "<run id>"), outbox entries queued (outbox, "", by a trigger:
// migrations/postgres/0018_outbox_notify.sql). Each server listens on one connection of its
// own (Listen) and wakes the goroutines waiting on a run (WatchRun,
// WatchCancel). A notification sent while the connection was down is lost,
// so waiters are also woken every pollEvery and after each reconnection,
// and read the database again: a notification only says "look now". On
// SQLite one process owns the database and nothing of this runs.

// The channels of the notifications.
const (
	channelEvents = "run_events"
	channelCancel = "run_cancel"
	channelOutbox = "outbox"
)

// pollEvery is how often waiters are woken without a notification.
var pollEvery = time.Second

// Backoff of the listener's reconnections.
var (
	listenRetryFirst = 100 * time.Millisecond
	listenRetryMax   = 5 * time.Second
)

// listener fans the notifications of one connection out to the waiters of
// this process, by channel and run.
type listener struct {
	// connector opens the listening connection; nil on SQLite.
	connector driver.Connector
	mu        sync.Mutex
	waiters   map[string]map[chan struct{}]struct{} // channel + "/" + run id
}

func newListener(connector driver.Connector) *listener {
	return &listener{connector: connector, waiters: map[string]map[chan struct{}]struct{}{}}
}

// WatchRun returns a channel that receives a signal (coalesced: at most one
// waits) when any server stores an event of the run, and at least every
// second in any case, while Listen runs; stop ends the watch. The receiver
// reads what is new with RunEvents. On SQLite the channel is nil and stop
// does nothing.
func (db *DB) WatchRun(runID string) (<-chan struct{}, func()) {
	return db.listen.watch(channelEvents, runID)
}

// WatchCancel is WatchRun for the Stops asked of the run (RequestCancel),
// read with CancelRequested.
func (db *DB) WatchCancel(runID string) (<-chan struct{}, func()) {
	return db.listen.watch(channelCancel, runID)
}

// WatchOutbox returns a channel that receives a signal when any server
// queues outbox entries, while Listen runs; stop ends the watch. Unlike a
// run's watchers it is not woken by the poll: the purge worker polls the
// outbox itself. On SQLite the channel is nil and stop does nothing.
func (db *DB) WatchOutbox() (<-chan struct{}, func()) {
	return db.listen.watch(channelOutbox, "")
}

func (l *listener) watch(channel, runID string) (<-chan struct{}, func()) {
	if l.connector == nil {
		return nil, func() {}
	}
	key := channel + "/" + runID
	c := make(chan struct{}, 1)
	l.mu.Lock()
	if l.waiters[key] == nil {
		l.waiters[key] = map[chan struct{}]struct{}{}
	}
	l.waiters[key][c] = struct{}{}
	l.mu.Unlock()
	var once sync.Once
	return c, func() {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			delete(l.waiters[key], c)
			if len(l.waiters[key]) == 0 {
				delete(l.waiters, key)
			}
		})
	}
}

// wake signals the waiters of key, or, when key is "", every run's waiter
// (the poll's and a reconnection's wake-up: the outbox's watcher polls itself).
func (l *listener) wake(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if key != "" {
		signal(l.waiters[key])
		return
	}
	for key, set := range l.waiters {
		if !strings.HasPrefix(key, channelOutbox+"/") {
			signal(set)
		}
	}
}

// signal wakes each channel of set without waiting: a signal already
// pending is enough, since its receiver reads everything that is new.
func signal(set map[chan struct{}]struct{}) {
	for c := range set {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

// Listen holds this server's listening connection until ctx ends,
// connecting again (with backoff) whenever it drops, and wakes every waiter
// each pollEvery meanwhile. Run it once per DB, for as long as the server
// serves. On SQLite it returns at once.
func (db *DB) Listen(ctx context.Context) {
	l := db.listen
	if l.connector == nil {
		return
	}
	go l.poll(ctx, pollEvery)
	wait := listenRetryFirst
	for ctx.Err() == nil {
		began := time.Now()
		l.session(ctx)
		if time.Since(began) > listenRetryMax {
			wait = listenRetryFirst // it had been up a while: this is a new outage
		}
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
		wait = min(2*wait, listenRetryMax)
	}
}

// poll wakes every waiter each period until ctx ends.
func (l *listener) poll(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			l.wake("")
		}
	}
}

// session connects, listens, and delivers notifications until the
// connection fails or ctx ends.
func (l *listener) session(ctx context.Context) {
	dc, err := l.connector.Connect(ctx)
	if err != nil {
		return
	}
	defer dc.Close()
	conn := dc.(*stdlib.Conn).Conn()
	if _, err := conn.Exec(ctx, "LISTEN "+channelEvents+"; LISTEN "+channelCancel+"; LISTEN "+channelOutbox); err != nil {
		return
	}
	// What was stored while no connection listened was not announced.
	l.wake("")
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return
		}
		runID, _, _ := strings.Cut(n.Payload, ":")
		l.wake(n.Channel + "/" + runID)
	}
}

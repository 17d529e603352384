package purge_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/purge"
)

// BenchmarkPlan is the dry run of the issue over a database of n
// conversations, 3n files and n artifacts (a quarter of the file blobs
// shared across conversations), by age (the retention case, the older half of
// the conversations) and by user (1%). B/op staying flat from 10,000 to
// 100,000 conversations is the bounded-memory claim:
//
//	go test ./purge -run '^$' -bench Plan -benchmem
func BenchmarkPlan(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		e := newEnv(b)
		seedBulk(b, filepath.Join(e.dir, "app.db"), n)
		sels := []struct {
			name string
			sel  purge.Selection
		}{
			// Conversations are a minute apart, so this picks the older ~half.
			{"older_than_half", purge.Selection{OlderThanDays: n / 2 / 1440}},
			{"one_user", purge.Selection{UserID: "u007"}},
		}
		for _, s := range sels {
			b.Run(fmt.Sprintf("conversations=%d/%s", n, s.name), func(b *testing.B) {
				var p *purge.Plan
				cpu := cpuTime()
				for b.Loop() {
					var err error
					if p, err = e.svc.Plan(context.Background(), s.sel); err != nil {
						b.Fatal(err)
					}
				}
				// CPU time per plan, beside the wall time: on a shared
				// machine the wall time mostly measures the neighbours.
				b.ReportMetric(float64((cpuTime()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
				b.ReportMetric(float64(p.Summary.Conversations), "selected")
				b.ReportMetric(float64(p.Summary.Files), "files")
			})
		}
	}
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// seedBulk fills the database with generated rows in one transaction of
// INSERT … SELECT statements: going through the store one row at a time
// would take minutes at this size. Digests start with every hex digit
// alike, as real ones do.
func seedBulk(b *testing.B, path string, n int) {
	b.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	now := time.Now().UnixMilli()
	stmts := []string{
		`INSERT INTO users (id, username, password_hash, role, created_at, updated_at)
			WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 99)
			SELECT printf('u%03d', i), printf('user%03d', i), 'h', 'analyst', ?1, ?1 FROM s`,
		// One conversation a minute back in time: n = 100,000 spans 69 days.
		`INSERT INTO conversations (id, user_id, title, created_at, updated_at, foundry_conversation_id)
			WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ?2 - 1)
			SELECT printf('c%07d', i), printf('u%03d', i % 100), 'title', ?1 - i * 60000, ?1 - i * 60000, printf('conv_%d', i) FROM s`,
		`INSERT INTO files (id, conversation_id, name, content_type, size, sha256, foundry_file_id, created_at)
			WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 3 * ?2 - 1)
			SELECT printf('f%08d', i), printf('c%07d', i / 3), 'data.csv', 'text/csv', 1000 + i % 5000,
				printf('%x%063x', i % (?2 * 9 / 4) % 16, i % (?2 * 9 / 4)), printf('assistant-%d', i), ?1 FROM s`,
		`INSERT INTO messages (id, conversation_id, role, content, created_at)
			WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ?2 - 1)
			SELECT printf('m%07d', i), printf('c%07d', i), 'user', 'q', ?1 FROM s`,
		`INSERT INTO runs (id, conversation_id, message_id, status, started_at)
			WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ?2 - 1)
			SELECT printf('r%07d', i), printf('c%07d', i), printf('m%07d', i), 'completed', ?1 FROM s`,
		`INSERT INTO artifacts (id, conversation_id, run_id, container_id, container_file_id, name, content_type, size, sha256, kind, created_at)
			WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ?2 - 1)
			SELECT printf('a%07d', i), printf('c%07d', i), printf('r%07d', i), 'cntr', printf('cfile_%d', i), 'chart.png',
				'image/png', 20000, printf('%x%063x', i % 16, 1000000000 + i), 'image', ?1 FROM s`,
		`ANALYZE`,
	}
	for _, q := range stmts {
		if _, err := db.Exec(q, now, n); err != nil {
			b.Fatalf("seed: %v\n%s", err, q)
		}
	}
}

// BenchmarkExecute purges the older half of n conversations, local rows
// and outbox included, then works the outbox against a fake that answers
// at once; it measures this package and SQLite, not Foundry. Each iteration
// seeds afresh, outside the timer.
//
//	go test ./purge -run '^$' -bench Execute -benchtime 1x
func BenchmarkExecute(b *testing.B) {
	n := 10_000
	if testing.Short() {
		n = 4_000
	}
	for b.Loop() {
		b.StopTimer()
		e := newEnv(b)
		seedBulk(b, filepath.Join(e.dir, "app.db"), n)
		ctx := context.Background()
		b.StartTimer()
		start := time.Now()
		res, err := e.svc.Execute(ctx, "admin", purge.Selection{OlderThanDays: n / 2 / 1440})
		if err != nil {
			b.Fatal(err)
		}
		local := time.Since(start)
		if err := e.svc.Drain(ctx); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Summary.Conversations), "conversations")
		b.ReportMetric(local.Seconds(), "local-s")
		b.ReportMetric(time.Since(start).Seconds(), "total-s")
	}
}

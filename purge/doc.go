// Package purge deletes conversations, files and artifacts here and in
// Foundry, by selection or by policy (age, user, orphans), for admins, for
// analysts deleting their own conversations and for the retention job.
//
// Every purge takes one path. [Service.Plan] is the dry run: aggregate
// counts and a bounded preview, nothing deleted. [Service.Execute] records
// the purge in the audit log and queues one outbox entry per conversation;
// each conversation's rows are then deleted in the same transaction that
// queues its Foundry objects and blobs, so a crash at any instant leaves
// either the rows or the entries that finish the job, never neither. The
// worker ([Service.Run], [Service.Drain]) retries every entry with backoff
// until it is done; a remote 404 counts as done, so repeating an entry after
// a crash is harmless. A blob is removed only when no remaining row uses its
// sha256. When a purge's last entry is done, a completed entry is appended
// to the audit log.
//
// Two races are left open. An upload whose bytes equal a blob being
// removed can lose its blob if the removal falls between the upload's
// write of the blob and the insert of its row (the upload's profiling
// time): closing it needs files.BlobStore.Put to touch an existing blob and the
// removal to spare recently touched ones. A turn still running when its
// conversation is purged may create Foundry objects afterwards; Reconcile
// and the orphan policy find them.
//
// One worker per database is assumed. A second one would only repeat
// idempotent deletions, never lose or double-count one: every completion is
// conditional on the entry still being pending.
package purge

package purge

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/store"
)

// chunk is how many digests or ids one "which of these are unknown" query
// carries: enough to make the round trips few, bounded so memory is too.
const chunk = 500

// orphans calls fn for every blob and Foundry file no row knows and older
// than the grace period.
func (s *Service) orphans(ctx context.Context, fn func(store.PurgeObject)) error {
	if err := s.orphanBlobs(ctx, fn); err != nil {
		return err
	}
	return s.orphanFiles(ctx, fn)
}

// orphanBlobs walks the blob store, asking the database about chunk
// digests at a time, so memory stays bounded however many blobs there are.
func (s *Service) orphanBlobs(ctx context.Context, fn func(store.PurgeObject)) error {
	cutoff := s.now().Add(-s.cfg.OrphanGrace)
	sizes := map[string]int64{}
	var batch []string
	flush := func() error {
		unused, err := s.db.UnusedBlobs(ctx, batch)
		for _, sha := range unused {
			fn(store.PurgeObject{Kind: store.OutboxBlob, Target: sha, Bytes: sizes[sha]})
		}
		batch, sizes = batch[:0], map[string]int64{}
		return err
	}
	err := s.cfg.Blobs.Walk(ctx, func(b files.BlobInfo) error {
		if b.Modified.After(cutoff) {
			return nil
		}
		batch, sizes[b.SHA256] = append(batch, b.SHA256), b.Size
		if len(batch) == chunk {
			return flush()
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("purge: orphan blobs: %w", err)
	}
	return flush()
}

// orphanFiles lists Foundry's files and keeps those the app uploaded and no
// file row names any more.
func (s *Service) orphanFiles(ctx context.Context, fn func(store.PurgeObject)) error {
	if s.cfg.Lister == nil {
		return nil
	}
	remote, err := s.cfg.Lister.Files(ctx)
	if err != nil {
		return fmt.Errorf("purge: list foundry files: %w", err)
	}
	cutoff := s.now().Add(-s.cfg.OrphanGrace)
	sizes := map[string]int64{}
	var ids []string
	for _, f := range remote {
		if f.CreatedAt.After(cutoff) {
			continue
		}
		ids, sizes[f.ID] = append(ids, f.ID), f.Bytes
	}
	return unknownIn(ids, func(part []string) error {
		unknown, err := s.db.UnknownFoundryFiles(ctx, part)
		for _, id := range unknown {
			fn(store.PurgeObject{Kind: store.OutboxFoundryFile, Target: id, Bytes: sizes[id]})
		}
		return err
	})
}

// unknownIn calls ask with ids in chunks.
func unknownIn(ids []string, ask func([]string) error) error {
	for len(ids) > 0 {
		n := min(chunk, len(ids))
		if err := ask(ids[:n]); err != nil {
			return err
		}
		ids = ids[n:]
	}
	return nil
}

// Reconciliation is what Foundry holds that this app no longer needs, for
// the admin page to offer; PurgeObjects deletes what the admin picks.
type Reconciliation struct {
	// Files are Foundry files the app uploaded that no file row names.
	Files []store.PurgeObject
	// Conversations are Foundry conversations with the app's tag that no
	// conversation row names.
	Conversations []store.PurgeObject
	// AgentVersions are the app's versions of its agents other than the
	// one in use.
	AgentVersions []store.PurgeObject
}

// Reconcile lists Foundry objects no local row knows. Objects younger than
// the grace period are left out: their rows may not be written yet.
func (s *Service) Reconcile(ctx context.Context) (*Reconciliation, error) {
	if s.cfg.Lister == nil {
		return &Reconciliation{}, nil
	}
	r := &Reconciliation{}
	err := s.orphanFiles(ctx, func(o store.PurgeObject) { r.Files = append(r.Files, o) })
	if err != nil {
		return nil, err
	}
	if r.Conversations, err = s.orphanConversations(ctx); err != nil {
		return nil, err
	}
	if r.AgentVersions, err = s.unusedAgentVersions(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

func (s *Service) orphanConversations(ctx context.Context) ([]store.PurgeObject, error) {
	remote, err := s.cfg.Lister.Conversations(ctx)
	if err != nil {
		return nil, fmt.Errorf("purge: list foundry conversations: %w", err)
	}
	cutoff := s.now().Add(-s.cfg.OrphanGrace)
	var ids []string
	for _, c := range remote {
		if !c.CreatedAt.After(cutoff) && tagged(c.Metadata, s.cfg.Tag) {
			ids = append(ids, c.ID)
		}
	}
	var out []store.PurgeObject
	err = unknownIn(ids, func(part []string) error {
		unknown, err := s.db.UnknownFoundryConversations(ctx, part)
		for _, id := range unknown {
			out = append(out, store.PurgeObject{Kind: store.OutboxFoundryConversation, Target: id})
		}
		return err
	})
	return out, err
}

// unusedAgentVersions offers, for each agent with a version recorded in use,
// its other versions that are the app's: tagged, or recorded as used by it.
// An agent with none in use is left alone: without a record there is no
// telling which version the app still needs.
func (s *Service) unusedAgentVersions(ctx context.Context) ([]store.PurgeObject, error) {
	records, err := s.db.AgentVersionRecords(ctx)
	if err != nil {
		return nil, err
	}
	inUse := map[string]map[string]bool{}
	ours := map[string]bool{}
	for _, r := range records {
		ours[r.Name+"/"+r.Version] = true
		if r.InUse {
			if inUse[r.Name] == nil {
				inUse[r.Name] = map[string]bool{}
			}
			inUse[r.Name][r.Version] = true
		}
	}
	var out []store.PurgeObject
	for _, name := range slices.Sorted(maps.Keys(inUse)) {
		used := inUse[name]
		versions, err := s.cfg.Lister.AgentVersions(ctx, name)
		if err != nil {
			return nil, fmt.Errorf("purge: list agent versions of %s: %w", name, err)
		}
		for _, v := range versions {
			if !used[v.Version] && (ours[name+"/"+v.Version] || tagged(v.Metadata, s.cfg.Tag)) {
				out = append(out, store.PurgeObject{Kind: store.OutboxAgentVersion, Parent: name, Target: v.Version})
			}
		}
	}
	return out, nil
}

// tagged reports whether metadata carries every pair of tag; nothing is
// tagged by an empty tag.
func tagged(metadata, tag map[string]string) bool {
	if len(tag) == 0 {
		return false
	}
	for k, v := range tag {
		if metadata[k] != v {
			return false
		}
	}
	return true
}

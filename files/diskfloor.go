package files

import (
	"errors"
	"fmt"
	"sync/atomic"
	"syscall"
)

// ErrLowDisk is returned when storing would take the disk's free space
// below the store's floor (SetMinFree); nothing is stored.
var ErrLowDisk = errors.New("files: the disk is almost full")

// floor is the free space a store keeps on its disk, and how many writes
// it refused to keep it.
type floor struct {
	minFree atomic.Int64
	refused atomic.Int64
}

// SetMinFree makes the store refuse, with ErrLowDisk, any write that would
// leave less than n bytes free on its disk; 0 turns the floor off. A full
// disk would break the database as well as the files.
func (b *Blobs) SetMinFree(n int64) { b.floor.minFree.Store(n) }

// MinFree is the floor SetMinFree set.
func (b *Blobs) MinFree() int64 { return b.floor.minFree.Load() }

// LowDiskRefusals counts the writes refused to keep the floor.
func (b *Blobs) LowDiskRefusals() int64 { return b.floor.refused.Load() }

// FreeBytes is the space left for the store's files on its disk.
func (b *Blobs) FreeBytes() (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(b.dir, &st); err != nil {
		return 0, fmt.Errorf("files: statfs: %w", err)
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}

// room returns how many bytes a write may take before it crosses the
// floor (max when there is no floor or more than max is left), and
// ErrLowDisk when there is no room at all.
func (b *Blobs) room(max int64) (int64, error) {
	floor := b.floor.minFree.Load()
	if floor <= 0 {
		return max, nil
	}
	free, err := b.FreeBytes()
	if err != nil {
		return 0, err
	}
	if free-floor <= 0 {
		return 0, b.lowDisk(floor)
	}
	return min(max, free-floor), nil
}

// lowDisk counts a refusal and says, for the user, why nothing was stored.
func (b *Blobs) lowDisk(floor int64) error {
	b.floor.refused.Add(1)
	return userErr(ErrLowDisk, "The server's disk is almost full (less than %s free), so nothing more is stored. "+
		"Ask your administrator to free space.", HumanSize(floor))
}

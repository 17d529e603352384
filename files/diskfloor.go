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
func (s *stager) SetMinFree(n int64) { s.floor.minFree.Store(n) }

// MinFree is the floor SetMinFree set.
func (s *stager) MinFree() int64 { return s.floor.minFree.Load() }

// LowDiskRefusals counts the writes refused to keep the floor.
func (s *stager) LowDiskRefusals() int64 { return s.floor.refused.Load() }

// FreeBytes is the space left on the disk the store stages files on (and,
// for the disk store, keeps them on).
func (s *stager) FreeBytes() (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(s.dir, &st); err != nil {
		return 0, fmt.Errorf("files: statfs: %w", err)
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}

// room returns how many bytes a write may take before it crosses the
// floor (max when there is no floor or more than max is left), and
// ErrLowDisk when there is no room at all.
func (s *stager) room(max int64) (int64, error) {
	floor := s.floor.minFree.Load()
	if floor <= 0 {
		return max, nil
	}
	free, err := s.FreeBytes()
	if err != nil {
		return 0, err
	}
	if free-floor <= 0 {
		return 0, s.lowDisk(floor)
	}
	return min(max, free-floor), nil
}

// lowDisk counts a refusal and says, for the user, why nothing was stored.
func (s *stager) lowDisk(floor int64) error {
	s.floor.refused.Add(1)
	return userErr(ErrLowDisk, "The server's disk is almost full (less than %s free), so nothing more is stored. "+
		"Ask your administrator to free space.", HumanSize(floor))
}

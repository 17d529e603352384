package files

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
)

// Bounds on a ZIP archive's central directory. archive/zip keeps a
// *zip.File for every record it finds, and reserves room for as many as
// the end record declares, so both are checked before it reads anything.
const (
	maxArchiveEntries       = 10_000
	maxDirectoryBytes int64 = 4 << 20
	// endSearchBytes is what archive/zip reads to find the end record:
	// the last 1 KiB, then the last 65 KiB, and the zip64 records.
	endSearchBytes int64 = 67 << 10
)

// errDirectoryTooLarge stops archive/zip once it has read more of the
// directory than maxDirectoryBytes.
var errDirectoryTooLarge = errors.New("files: zip directory too large")

// readZipDirectory opens the central directory of the archive in r of
// size bytes with archive/zip, within the bounds above: an end record
// declaring too many entries fails with errDirectoryTooLarge before
// archive/zip reserves room for them, and so does a directory it would read
// past maxDirectoryBytes. Other failures are archive/zip's own. The
// reader is for the directory only: its budget is spent on reading it.
func readZipDirectory(r io.ReaderAt, size int64) (*zip.Reader, error) {
	if n, ok := declaredEntries(r, size); ok && n > maxArchiveEntries {
		return nil, errDirectoryTooLarge
	}
	zr, err := zip.NewReader(&budgetReaderAt{r: r, left: endSearchBytes + maxDirectoryBytes}, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		// Names such as ../x matter only to whoever extracts the archive:
		// the sandbox, where they cannot leave its directory.
		return nil, err
	}
	if len(zr.File) > maxArchiveEntries {
		return nil, errDirectoryTooLarge
	}
	return zr, nil
}

// budgetReaderAt fails reads once left bytes have been read in all.
type budgetReaderAt struct {
	r    io.ReaderAt
	left int64
}

func (b *budgetReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	if len(p) == 0 {
		return 0, errDirectoryTooLarge
	}
	n, err := b.r.ReadAt(p, off)
	b.left -= int64(n)
	return n, err
}

// ZIP record signatures and lengths (APPNOTE.TXT 4.3.14 to 4.3.16).
const (
	endSignature      = "PK\x05\x06"
	end64LocSignature = "PK\x06\x07"
	end64Signature    = "PK\x06\x06"
	endLen            = 22
	end64LocLen       = 20
	end64Len          = 56
)

// declaredEntries returns the number of entries the end of central
// directory record declares, found the way archive/zip finds it, and
// whether one was found. It follows a zip64 end record when the 32-bit
// fields say to, as archive/zip does.
func declaredEntries(r io.ReaderAt, size int64) (uint64, bool) {
	end, at := findEnd(r, size)
	if end == nil {
		return 0, false
	}
	n := uint64(binary.LittleEndian.Uint16(end[10:]))
	dirSize, dirOffset := binary.LittleEndian.Uint32(end[12:]), binary.LittleEndian.Uint32(end[16:])
	if n != 0xffff && dirSize != 0xffff && dirOffset != 0xffffffff {
		return n, true
	}
	if n64, ok := zip64Entries(r, at); ok {
		return n64, true
	}
	return n, true
}

// findEnd returns the end record and its offset: the last signature in
// the last 1 KiB, or else in the last 65 KiB, whose comment fits.
func findEnd(r io.ReaderAt, size int64) ([]byte, int64) {
	for _, n := range []int64{1 << 10, 65 << 10} {
		n = min(n, size)
		buf := make([]byte, n)
		if _, err := r.ReadAt(buf, size-n); err != nil && !errors.Is(err, io.EOF) {
			return nil, 0
		}
		for i := len(buf) - endLen; i >= 0; i-- {
			if !bytes.HasPrefix(buf[i:], []byte(endSignature)) {
				continue
			}
			comment := int(binary.LittleEndian.Uint16(buf[i+endLen-2:]))
			if i+endLen+comment > len(buf) {
				break // a truncated comment: archive/zip gives up on this block too
			}
			return buf[i : i+endLen], size - n + int64(i)
		}
		if n == size {
			break
		}
	}
	return nil, 0
}

// zip64Entries reads the entry count of the zip64 end record that the
// locator just before the end record at endAt points to.
func zip64Entries(r io.ReaderAt, endAt int64) (uint64, bool) {
	if endAt < end64LocLen {
		return 0, false
	}
	loc := make([]byte, end64LocLen)
	if _, err := r.ReadAt(loc, endAt-end64LocLen); err != nil || !bytes.HasPrefix(loc, []byte(end64LocSignature)) {
		return 0, false
	}
	if binary.LittleEndian.Uint32(loc[4:]) != 0 || binary.LittleEndian.Uint32(loc[16:]) != 1 {
		return 0, false // not a single-disk zip64 file: archive/zip ignores the locator too
	}
	rec := make([]byte, end64Len)
	off := binary.LittleEndian.Uint64(loc[8:])
	if off > 1<<62 {
		return 0, false
	}
	if _, err := r.ReadAt(rec, int64(off)); err != nil || !bytes.HasPrefix(rec, []byte(end64Signature)) {
		return 0, false
	}
	return binary.LittleEndian.Uint64(rec[32:]), true
}

package files

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"os"
)

// Bounds on what a ZIP-based file (.xlsx, .docx, .pptx, .zip) may unpack
// to, judged from its central directory before any parser opens it. The
// readers of these files (archive/zip here, Python's zipfile in the
// sandbox) stop inflating an entry at the size the directory declares, so
// bounding the declared sizes bounds the bytes actually inflated.
const (
	// maxEntrySize and maxArchiveSize cap one entry and all entries,
	// uncompressed. Excel's largest sheet is well under a gigabyte of XML.
	maxEntrySize   int64 = 1 << 30
	maxArchiveSize int64 = 2 << 30
	// maxRatio caps how many times an entry, or the whole archive, may
	// grow when inflated. Real documents grow 2 to 30 times; deflated zeros,
	// the stuff of zip bombs, a thousand times.
	maxRatio int64 = 200
	// ratioFloor exempts entries, and archives, that unpack to less from
	// the ratio: however well they compress (a column of zeros does), they
	// cannot do much harm.
	ratioFloor int64 = 64 << 20
)

// checkArchive checks the central directory of the ZIP archive in r, of
// size bytes, against the bounds above, without inflating anything.
// subject names the file in messages: quoted, or "This workbook". It
// returns the directory's entries, for callers that go on to weigh them, or
// a *UserError.
func checkArchive(r io.ReaderAt, size int64, subject string) ([]*zip.File, error) {
	zr, err := readZipDirectory(r, size)
	switch {
	case errors.Is(err, errDirectoryTooLarge):
		return nil, errTooManyEntries(subject)
	case err != nil:
		return nil, errNotZip(subject, err)
	}
	if err := checkEntries(zr.File, subject); err != nil {
		return nil, err
	}
	return zr.File, nil
}

// checkEntries applies the size, ratio and consistency bounds to the
// entries a directory declares.
func checkEntries(entries []*zip.File, subject string) error {
	var total, packed int64
	for _, e := range entries {
		size, comp := declaredSizes(e)
		switch {
		case size > maxEntrySize:
			return errEntryTooLarge(subject, e.Name, size)
		case size > ratioFloor && size > comp*maxRatio:
			return errBomb(subject, e.Name, size, comp)
		case !plausibleSizes(e.Method, size, comp):
			return errLyingDirectory(subject, e.Name)
		}
		total, packed = total+size, packed+comp
	}
	switch {
	case total > maxArchiveSize:
		return errArchiveTooLarge(subject, total)
	case total > ratioFloor && total > packed*maxRatio:
		return errBomb(subject, "", total, packed)
	}
	return nil
}

// declaredSizes returns an entry's uncompressed and compressed sizes,
// clamped so that sums of up to maxArchiveEntries cannot overflow.
func declaredSizes(e *zip.File) (size, comp int64) {
	const clamp = 1 << 40
	return int64(min(e.UncompressedSize64, clamp)), int64(min(e.CompressedSize64, clamp))
}

// plausibleSizes reports whether a compressed size can hold no more than
// the declared uncompressed size. Deflate cannot expand its input by more
// than 5 bytes a 64 KiB block; stored data is its own size. A compressed
// size above that means the directory understates what the entry holds.
func plausibleSizes(method uint16, size, comp int64) bool {
	switch method {
	case zip.Store:
		return comp <= size+12 // an encrypted entry carries a 12-byte header
	case zip.Deflate:
		return comp <= size+size/1000+1024
	}
	return true
}

// checkZipFile checks the archive at path with checkArchive.
func checkZipFile(path, subject string) ([]*zip.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("files: check archive: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("files: check archive: %w", err)
	}
	return checkArchive(f, info.Size(), subject)
}

// isZip reports whether head starts a ZIP archive, whatever the name says.
func isZip(head []byte) bool {
	fam, _ := sniffBinary(head)
	return fam == famZip
}

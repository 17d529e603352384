package files

import (
	"errors"
	"fmt"
)

// Sentinel causes wrapped by the [*UserError] values this package returns, so
// that callers can branch with errors.Is while showing the error's message.
var (
	// ErrUnsupported means the file's extension is not a supported type.
	ErrUnsupported = errors.New("files: unsupported file type")
	// ErrMismatch means the content contradicts the extension.
	ErrMismatch = errors.New("files: content does not match extension")
	// ErrExecutable means the content is a program; programs are always refused.
	ErrExecutable = errors.New("files: executable content")
	// ErrEmpty means the file has no bytes.
	ErrEmpty = errors.New("files: empty file")
	// ErrTooLarge means the file is over the size limit.
	ErrTooLarge = errors.New("files: file too large")
	// ErrUnreadable means a supported file could not be parsed at all.
	ErrUnreadable = errors.New("files: unreadable file")
	// ErrNameTooLong means the file name is over MaxNameBytes.
	ErrNameTooLong = errors.New("files: file name too long")
)

// ErrNoProfile is returned by [Profile] for kinds it does not describe (every
// kind but CSV, TSV, XLSX and JSON). It is not a user error: the upload is fine.
var ErrNoProfile = errors.New("files: no profile for this kind")

// UserError is a refusal meant for the person who uploaded the file. Error
// returns Msg, full sentences that say what happened and what to do; Err is
// one of this package's sentinels (ErrEmpty, ErrTooLarge ...), for errors.Is.
// Show Msg as it is; never show other errors' text to users.
type UserError struct {
	Msg string
	Err error
}

// Error returns the message for the user.
func (e *UserError) Error() string { return e.Msg }

// Unwrap returns the sentinel cause.
func (e *UserError) Unwrap() error { return e.Err }

// UserMessage returns the text for the user.
func (e *UserError) UserMessage() string { return e.Msg }

func userErr(cause error, format string, args ...any) *UserError {
	return &UserError{Msg: fmt.Sprintf(format, args...), Err: cause}
}

func errEmpty(name string) *UserError {
	return userErr(ErrEmpty, "“%s” is empty (0 bytes). Check that you picked the right file and upload it again.", name)
}

// errTooLarge names the file when it is known; Put only sees bytes.
func errTooLarge(name string, max int64) *UserError {
	subject := "The file"
	if name != "" {
		subject = "“" + name + "”"
	}
	return userErr(ErrTooLarge, "%s is larger than %s, the most the analysis sandbox accepts. "+
		"Split it into smaller files or remove columns you don't need, then upload the parts.", subject, HumanSize(max))
}

func errNameTooLong(name string) *UserError {
	return userErr(ErrNameTooLong, "“%s” has a name of %d bytes; the longest accepted is %d. "+
		"Rename the file with a shorter name and upload it again.", ShortName(name), len(name), MaxNameBytes)
}

// ShortName cuts a file name to a length fit for a message: a name may be
// up to MaxNameBytes long, and one that is refused may be any length.
func ShortName(name string) string { return truncate(name, maxShownName) }

func errNoExtension(name string) *UserError {
	return userErr(ErrUnsupported, "“%s” has no file extension, so its type is unknown. "+
		"Rename it with the extension of its type (for example .csv or .xlsx) and upload it again.", name)
}

func errUnsupported(name, ext string) *UserError {
	return userErr(ErrUnsupported, "“%s” can't be analysed: %s files aren't supported. "+
		"Upload data as CSV, TSV, Excel (.xlsx, .xls), JSON or Parquet; PDF, Word, PowerPoint, "+
		"text, code, images (PNG, JPEG, GIF) and ZIP or TAR archives are accepted too.", name, ext)
}

func errExecutable(name string) *UserError {
	return userErr(ErrExecutable, "“%s” is a program (an executable file), not data, and programs are never accepted. "+
		"Upload the data file itself.", name)
}

// textContent describes text found where a binary format was expected.
const textContent = "plain text"

func errMismatch(name string, k Kind, fam family, content string) *UserError {
	advice := "Rename it to match its content, or upload the right file."
	switch {
	case fam == famForeign:
		advice = "That type isn't supported: upload the data as CSV, Excel or JSON instead."
	case content == textContent && k.Tabular:
		advice = "If it holds CSV data, rename it to .csv and upload it again."
	}
	return userErr(ErrMismatch, "“%s” is named like %s but its content is %s. %s", name, k.Label, content, advice)
}

func errBinary(name string, k Kind) *UserError {
	return userErr(ErrMismatch, "“%s” is named like %s but its content is binary data, not text. "+
		"Export or save it again as %s and upload that.", name, k.Label, k.Label)
}

// HumanSize formats n in binary units with the short names people expect
// ("512 MB" for 512 MiB), as the sandbox's own limit is phrased, for
// messages about sizes.
func HumanSize(n int64) string {
	const unit = 1 << 10
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	v := float64(n) / float64(div)
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %cB", int64(v), "KMGT"[exp])
	}
	return fmt.Sprintf("%.1f %cB", v, "KMGT"[exp])
}

// errEncrypted is for Office files saved with a password, which the sandbox
// cannot open; subject is the quoted name or "This workbook".
func errEncrypted(subject string) *UserError {
	return userErr(ErrUnreadable, "%s is protected with a password, so it can't be read. "+
		"Remove the password (in Excel: File, Info, Protect Workbook) and upload it again.", subject)
}

// ErrArchive means a ZIP-based file would unpack to too much, or its
// directory contradicts its contents: the marks of a zip bomb.
var ErrArchive = errors.New("files: archive refused")

func errBomb(subject, entry string, size, comp int64) *UserError {
	what := "its contents"
	if entry != "" {
		what = "its part “" + truncate(entry, maxShownName) + "”"
	}
	return userErr(ErrArchive, "%s was refused: %s would grow from %s to %s when unpacked, %d times over. "+
		"Files built like this are used to exhaust a server's memory. If it is a genuine file, open it, save it again "+
		"and upload the new copy, or upload the data as CSV.", subject, what, HumanSize(comp), HumanSize(size), size/max(comp, 1))
}

func errEntryTooLarge(subject, entry string, size int64) *UserError {
	return userErr(ErrArchive, "%s was refused: its part “%s” unpacks to %s, more than the %s one part may hold. "+
		"Upload that data as a file of its own, or split it into smaller files.",
		subject, truncate(entry, maxShownName), HumanSize(size), HumanSize(maxEntrySize))
}

func errArchiveTooLarge(subject string, total int64) *UserError {
	return userErr(ErrArchive, "%s was refused: it unpacks to %s in all, more than the %s an archive may hold. "+
		"Split it into smaller archives, or upload only the files you need.", subject, HumanSize(total), HumanSize(maxArchiveSize))
}

func errTooManyEntries(subject string) *UserError {
	return userErr(ErrArchive, "%s was refused: it holds more than %d files, or its table of contents is larger than %s. "+
		"Split it into smaller archives, or upload only the files you need.", subject, maxArchiveEntries, HumanSize(maxDirectoryBytes))
}

func errLyingDirectory(subject, entry string) *UserError {
	return userErr(ErrArchive, "%s was refused: its table of contents says its part “%s” is smaller than the data it holds, "+
		"so the file is damaged or was built to mislead. Create it again from the original and upload the new copy.",
		subject, truncate(entry, maxShownName))
}

// errNotZip keeps archive/zip's words in Err, for the log.
func errNotZip(subject string, cause error) *UserError {
	return &UserError{Msg: subject + " can't be read as a ZIP archive (as Excel, Word and PowerPoint files are inside): " +
		"it may be damaged or incomplete. Save or create it again and upload the new copy.",
		Err: fmt.Errorf("%w: %w", ErrUnreadable, cause)}
}

// maxShownName is how much of a name from inside a file a message quotes.
const maxShownName = 80

// ErrNotProfiled means a file was stored without a profile: describing it
// would take more memory than allowed, or the server was too busy.
var ErrNotProfiled = errors.New("files: not profiled")

func errWorkbookTooHeavy(held int64) *UserError {
	return userErr(ErrNotProfiled, "This workbook was not profiled: its parts other than large sheets (styles, images, charts) "+
		"come to %s, more than a profile may hold in memory. The file itself was uploaded: ask the assistant about it as usual.",
		HumanSize(held))
}

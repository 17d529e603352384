package files

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"
)

// FileProfile describes a tabular file for the person who uploaded it and for
// the agent that will read it.
type FileProfile struct {
	// Format is "csv", "tsv", "xlsx", "json" (an array of records or a single
	// object) or "jsonl" (one record per line).
	Format string
	// Encoding is the Python codec name of a text file ("utf-8", "utf-8-sig",
	// "utf-16", "cp1252" ...), ready for pandas' encoding= argument.
	Encoding string
	// Delimiter is the field separator of a CSV or TSV file.
	Delimiter string
	// Thousands and Decimal are the thousands separator and the decimal mark
	// the numbers use, when they are not plain ("" and "" mean 1234.5).
	Thousands, Decimal string
	// Sheets lists a workbook's sheets; Sheet is the one profiled, the first.
	Sheets []string
	Sheet  string
	// Rows counts data rows, without the header. RowsExact is false when it
	// is not a full count: either the read stopped at ctx's end or the time
	// budget, and Rows is an estimate from the bytes read (CSV, JSON) or the
	// rows read so far, a lower bound (XLSX); or a quote never closed or a
	// broken record made the count unreliable, as Problems then says.
	Rows      int64
	RowsExact bool
	Columns   []Column
	// Sample holds the first rows, one string per column, cut for display.
	Sample [][]string
	// Problems are full sentences about what is wrong with the file but did
	// not stop the profile: ragged rows, unbalanced quotes, mixed encodings.
	Problems []string
}

// timeBudget caps the time one profile spends reading; the rest of a file
// past it is estimated, not read.
var timeBudget = 20 * time.Second // a variable for tests on slow machines

// budget says when to stop reading: at ctx's end or at the time budget.
type budget struct {
	ctx      context.Context
	deadline time.Time
}

func (b budget) over() bool {
	return b.ctx.Err() != nil || time.Now().After(b.deadline)
}

// Profile describes the CSV, TSV, XLSX or JSON file at path, of kind k (from
// [Check]). It reads the file once, in bounded memory: the column types and
// the sample come from the first rows, the row and missing-value counts from
// every row until ctx ends or a time budget runs out. Other kinds give
// [ErrNoProfile]; a file that cannot be read at all gives a [*UserError].
func Profile(ctx context.Context, path string, k Kind) (*FileProfile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("files: profile: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("files: profile: %w", err)
	}
	b := budget{ctx: ctx, deadline: time.Now().Add(timeBudget)}
	switch k.Ext {
	case ".csv", ".tsv":
		return profileCSV(b, f, info.Size(), k)
	case ".json":
		return profileJSON(b, f, info.Size())
	case ".xlsx":
		return profileXLSX(b, path)
	}
	return nil, ErrNoProfile
}

// countingReader counts the bytes read through it, so that a stopped read can
// estimate how much of the file it covered.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// estimate scales rows read from the first read bytes up to size bytes.
func estimate(rows, read, size int64) int64 {
	if read <= 0 || read >= size {
		return rows
	}
	return int64(float64(rows) * float64(size) / float64(read))
}

package files

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// maxJSONValue bounds one JSON value in memory: the decoder holds a whole
// value while it reads it, in a buffer that doubles as it fills, so a value
// costs up to several times its size. Members of a record are values of
// their own, so only a single huge string, array or nested object (a
// 500 MB line) meets the bound.
const maxJSONValue = 4 << 20

var errValueTooLarge = errors.New("files: json value too large")

// valueCap fails a read once the decoder has buffered more than max bytes it
// has not yet consumed, that is, once one value is larger than max.
type valueCap struct {
	r    io.Reader
	dec  *json.Decoder
	read int64
	max  int64
}

func (c *valueCap) Read(p []byte) (int, error) {
	if c.read-c.dec.InputOffset() > c.max {
		return 0, errValueTooLarge
	}
	n, err := c.r.Read(p)
	c.read += int64(n)
	return n, err
}

func profileJSON(b budget, f *os.File, size int64) (*FileProfile, error) {
	head, err := readHead(f, sniffBytes)
	if err != nil {
		return nil, err
	}
	enc, ok := sniffText(head)
	if !ok {
		return nil, userErr(ErrUnreadable, "This file is not readable as text, so it isn't JSON. "+
			"Export the data again as JSON or CSV and upload that.")
	}
	cr := &countingReader{r: f}
	br := bufio.NewReaderSize(enc.reader(cr), 64<<10)
	first, err := firstByte(br)
	if err != nil || (first != '[' && first != '{') {
		return nil, userErr(ErrUnreadable, "This JSON file doesn't hold records: it should be a list of objects "+
			"([{…}, {…}]) or one object per line (JSON Lines). Export the data in one of those shapes and upload it again.")
	}
	vc := &valueCap{r: &nonFinite{r: br}, max: maxJSONValue}
	dec := json.NewDecoder(vc)
	vc.dec = dec
	j := &jsonScan{dec: dec, t: &table{}, index: map[string]int{}}
	p := &FileProfile{Format: "jsonl", Encoding: enc.name, RowsExact: true}
	if first == '[' {
		p.Format = "json"
		_, _ = dec.Token() // the '[' firstByte saw
	}
	if err := j.records(b, first == '['); err != nil {
		if j.t.rows == 0 && errors.Is(err, errValueTooLarge) {
			return nil, errJSONValueTooLarge(j.member)
		}
		if j.t.rows == 0 {
			return nil, userErr(ErrUnreadable, "This file isn't valid JSON (%s). "+
				"Check that it was exported completely and upload it again.", jsonErrText(err))
		}
		p.RowsExact = false
		p.Problems = append(p.Problems, jsonProblem(err, j.t.rows))
	}
	if j.stopped {
		p.RowsExact = false
		j.t.rows = estimate(j.t.rows, cr.n, size)
	}
	j.finish(p)
	return p, nil
}

// firstByte returns the first byte that is not white space, leaving it unread.
func firstByte(br *bufio.Reader) (byte, error) {
	for {
		c, err := br.ReadByte()
		if err != nil {
			return 0, err
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c, br.UnreadByte()
		}
	}
}

// errJSONValueTooLarge is for a file whose first record holds a value over
// maxJSONValue; key is the member that holds it, if known.
func errJSONValueTooLarge(key string) *UserError {
	where := "Its first record holds a value"
	if key != "" {
		where = fmt.Sprintf("Its value under “%s” is", truncate(key, maxShownName))
	}
	return userErr(ErrNotProfiled, "This JSON file was not profiled. %s larger than %s, more than a profile reads at once. "+
		"The file itself was uploaded: ask the assistant about it as usual.", where, HumanSize(maxJSONValue))
}

func jsonErrText(err error) string {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Sprintf("%s, at byte %d", syn.Error(), syn.Offset)
	}
	if errors.Is(err, errValueTooLarge) {
		return "a single value is larger than " + HumanSize(maxJSONValue)
	}
	return err.Error()
}

func jsonProblem(err error, rows int64) string {
	if errors.Is(err, errValueTooLarge) {
		return fmt.Sprintf("Record %d holds a value larger than %s, so only the %d record(s) before it were profiled. "+
			"The assistant can still read the whole file.", rows+1, HumanSize(maxJSONValue), rows)
	}
	return fmt.Sprintf("The JSON is malformed after record %d (%s); only the records before it were profiled. "+
		"Check that the file was exported completely.", rows, jsonErrText(err))
}

// jsonScan is the pass over the records of a JSON file.
type jsonScan struct {
	dec     *json.Decoder
	t       *table
	index   map[string]int // column name to position in t.cols
	present []bool         // columns present in the current record
	samples []map[string]string
	fields  map[string]json.RawMessage // reused by countRecord
	member  string                     // the key being read, for messages
	stopped bool                       // the budget ran out before the end
}

// records reads every record; inArray says they are elements of a top-level
// array rather than a stream of values.
func (j *jsonScan) records(b budget, inArray bool) error {
	for {
		if inArray && !j.dec.More() {
			return nil
		}
		var err error
		if j.t.rows < sampleRows {
			err = j.nextRecord()
		} else {
			err = j.countRecord()
		}
		if errors.Is(err, io.EOF) && !inArray {
			return nil
		}
		if err != nil {
			return err
		}
		if j.t.rows%1024 == 0 && b.over() {
			j.stopped = true
			return nil
		}
	}
}

func (j *jsonScan) nextRecord() error {
	tok, err := j.dec.Token()
	if err != nil {
		return err
	}
	return j.record(tok)
}

// countRecord reads a record past the sample. Decoding it into a map is
// several times faster than the token by token reading of record, which
// keeps the order of the keys; past the sample the order is settled.
func (j *jsonScan) countRecord() error {
	clear(j.fields)
	err := j.dec.Decode(&j.fields)
	var typeErr *json.UnmarshalTypeError
	whole := errors.As(err, &typeErr) // an array or a scalar: every column is there
	if err != nil && !whole {
		return err
	}
	j.t.rows++
	j.present = j.present[:0]
	j.present = append(j.present, make([]bool, len(j.t.cols))...)
	for i := range j.present {
		j.present[i] = whole
	}
	for k, v := range j.fields {
		j.cell(k, v, nil)
	}
	j.countAbsent()
	return nil
}

// record reads one record whose first token is tok: an object gives a column
// per key, an array a column per position, anything else a "value" column.
func (j *jsonScan) record(tok json.Token) error {
	j.t.rows++
	j.present = j.present[:0]
	j.present = append(j.present, make([]bool, len(j.t.cols))...)
	var sample map[string]string
	if len(j.samples) < shownRows {
		sample = map[string]string{}
		j.samples = append(j.samples, sample)
	}
	var err error
	switch tok {
	case json.Delim('{'):
		err = j.members(sample, true)
	case json.Delim('['):
		err = j.members(sample, false)
	default:
		raw, _ := json.Marshal(tok)
		j.cell("value", raw, sample)
	}
	if err != nil {
		// The broken record is not one: it is neither counted nor shown.
		j.t.rows--
		if sample != nil {
			j.samples = j.samples[:len(j.samples)-1]
		}
		return err
	}
	j.countAbsent()
	return nil
}

// members reads the keys and values of an object, or the elements of an
// array, up to the closing delimiter.
func (j *jsonScan) members(sample map[string]string, object bool) error {
	for i := 0; j.dec.More(); i++ {
		name := strconv.Itoa(i)
		if object {
			key, err := j.dec.Token()
			if err != nil {
				return err
			}
			name, _ = key.(string)
			j.member = name
		}
		var raw json.RawMessage
		if err := j.dec.Decode(&raw); err != nil {
			return err
		}
		j.cell(name, raw, sample)
	}
	_, err := j.dec.Token() // the closing '}' or ']'
	return err
}

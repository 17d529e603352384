// Package devcorpus reads the development corpus of questions written by others (DataBench,
// WikiTableQuestions) for the tests of the language front end. The corpus lives in the
// repository at RepoDir once it is committed there; until then tests fall back to RawDir, and
// skip when neither exists. Test splits (DataBench 066–080, WTQ's unseen tables) are never read.
package devcorpus

import (
	"encoding/csv"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// RepoDir is the corpus's place in the repository, relative to emulator/analyst.
const RepoDir = "testdata/devcorpus"

// RawDir is where the corpus was unpacked before it was committed.
const RawDir = "/work/devcorpus-raw"

// ErrMissing is returned when the corpus is in neither place.
var ErrMissing = errors.New("devcorpus: the development corpus is not present")

// Dir returns the corpus directory: the repository's copy when present, else RawDir.
func Dir() (string, error) {
	_, file, _, _ := runtime.Caller(0)
	repo := filepath.Join(filepath.Dir(file), "..", "..", RepoDir)
	for _, d := range []string{repo, RawDir} {
		if st, err := os.Stat(filepath.Join(d, "databench")); err == nil && st.IsDir() {
			return d, nil
		}
	}
	return "", ErrMissing
}

// Question is one DataBench question with its gold annotation.
type Question struct {
	Question    string
	Answer      string
	Type        string   // boolean, category, number, list[category], list[number]
	ColumnsUsed []string // the gold columns
	ColumnTypes []string // their types, parallel: "number[uint32]", "category", "boolean", …
	Dataset     string   // "001_Forbes"
	Split       string   // "train" or "dev": the file it came from
}

// DataBench returns the questions of qa_train.csv and qa_dev.csv, in file order.
func DataBench() ([]Question, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	var out []Question
	for _, name := range []string{"qa_train.csv", "qa_dev.csv"} {
		rows, err := readCSV(filepath.Join(dir, "databench", name))
		if err != nil {
			return nil, err
		}
		col := index(rows[0])
		for _, r := range rows[1:] {
			out = append(out, Question{
				Question: r[col["question"]], Answer: r[col["answer"]], Type: r[col["type"]],
				ColumnsUsed: pythonList(r[col["columns_used"]]), ColumnTypes: pythonList(r[col["column_types"]]), Dataset: r[col["dataset"]],
				Split: strings.TrimSuffix(strings.TrimPrefix(name, "qa_"), ".csv"),
			})
		}
	}
	return out, nil
}

// Header returns the header of a DataBench table shipped with the corpus ("001_Forbes"), or
// fs.ErrNotExist when the corpus has only its questions.
func Header(dataset string) ([]string, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(filepath.Join(dir, "databench", "tables", dataset+".csv"))
	if err != nil {
		return nil, fs.ErrNotExist
	}
	defer f.Close()
	return csv.NewReader(f).Read()
}

// Table returns every row of a DataBench table shipped with the corpus, header first.
func Table(dataset string) ([][]string, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	return readCSV(filepath.Join(dir, "databench", "tables", dataset+".csv"))
}

// WTQ returns the utterances of WikiTableQuestions' training file.
func WTQ() ([]string, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(dir, "wtq", "training.tsv"))
	if err != nil {
		return nil, err
	}
	var out []string
	for i, line := range strings.Split(string(data), "\n") {
		f := strings.Split(line, "\t")
		if i == 0 || len(f) < 2 {
			continue
		}
		out = append(out, f[1])
	}
	return out, nil
}

func readCSV(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	return r.ReadAll()
}

func index(header []string) map[string]int {
	m := map[string]int{}
	for i, h := range header {
		m[h] = i
	}
	return m
}

// pythonList parses the corpus's Python list literals: "['finalWorth', 'selfMade']". Names may
// contain commas and quotes of the other kind, so it reads quoted items rather than splitting.
// A few rows write the names bare, "[Sex, Survived]"; those are split on commas.
func pythonList(s string) []string {
	// Some rows write their names unquoted ("[What's your height? in cm 📏]"): an apostrophe
	// inside a name is no quote.
	if inner := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "[")); !strings.ContainsAny(s, `'"`) || !strings.HasPrefix(inner, "'") && !strings.HasPrefix(inner, `"`) {
		var out []string
		for _, f := range strings.Split(strings.Trim(strings.TrimSpace(s), "[]"), ",") {
			if f = strings.TrimSpace(f); f != "" {
				out = append(out, f)
			}
		}
		return out
	}
	var out []string
	for i := 0; i < len(s); i++ {
		q := s[i]
		if q != '\'' && q != '"' {
			continue
		}
		j := i + 1
		for j < len(s) && s[j] != q {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		if j <= len(s) {
			out = append(out, strings.ReplaceAll(s[i+1:min(j, len(s))], `\'`, `'`))
		}
		i = j
	}
	return out
}

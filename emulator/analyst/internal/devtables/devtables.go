// Package devtables describes the development corpus's DataBench tables for the tests of
// schema linking and of package meaning: the full tables of the datasets the corpus ships, and
// for every other dataset the columns its questions use.
package devtables

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/emulator/analyst/internal/devcorpus"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// Tables builds a schema.Table per DataBench dataset. The corpus ships the full tables of
// 001–003 only: their headers and values are used. For every other dataset the columns are the
// union of columns_used over all its questions, typed by the corpus's column_types, without
// values — so those figures measure linking among the columns questions actually use.
func Tables(qs []devcorpus.Question) map[string]*schema.Table {
	tables := map[string]*schema.Table{}
	for _, q := range qs {
		tb := tables[q.Dataset]
		if tb == nil {
			tb = fullTable(q.Dataset)
			// The dataset's name stands for the file name: "051_Pokemon".
			tb.File = strings.TrimLeft(q.Dataset, "0123456789_") + ".csv"
			tables[q.Dataset] = tb
		}
		for k, c := range q.ColumnsUsed {
			if !slices.ContainsFunc(tb.Columns, func(col schema.Column) bool { return col.Name == c }) && k < len(q.ColumnTypes) {
				tb.Columns = append(tb.Columns, schema.Column{Name: c, Type: corpusType(q.ColumnTypes[k])})
			}
		}
	}
	return tables
}

// fullTable reads a shipped table, or returns an empty one to be filled from the questions.
func fullTable(dataset string) *schema.Table {
	rows, err := devcorpus.Table(dataset)
	if err != nil || len(rows) < 2 {
		return &schema.Table{}
	}
	tb := &schema.Table{}
	for k, name := range rows[0] {
		var values []string
		for _, r := range rows[1:] {
			if k < len(r) && !slices.Contains(values, r[k]) {
				values = append(values, r[k])
			}
		}
		tb.Columns = append(tb.Columns, inferColumn(name, values))
	}
	return tb
}

// inferColumn types a shipped column from its values: True/False is boolean, numbers are
// numbers, few distinct values are categories.
func inferColumn(name string, values []string) schema.Column {
	numeric, boolean := true, true
	for _, v := range values {
		if _, err := strconv.ParseFloat(v, 64); err != nil && v != "" {
			numeric = false
		}
		if v != "True" && v != "False" {
			boolean = false
		}
	}
	switch {
	case boolean:
		return schema.Column{Name: name, Type: schema.Boolean, Values: values}
	case numeric:
		return schema.Column{Name: name, Type: schema.Number}
	case len(values) <= 200:
		return schema.Column{Name: name, Type: schema.Category, Values: values}
	}
	return schema.Column{Name: name, Type: schema.Text}
}

func corpusType(s string) schema.ColumnType {
	switch {
	case strings.HasPrefix(s, "number"):
		return schema.Number
	case s == "category":
		return schema.Category
	case s == "boolean":
		return schema.Boolean
	case strings.HasPrefix(s, "date"):
		return schema.Date
	case strings.HasPrefix(s, "list"):
		return schema.List
	}
	return schema.Text
}

// Load reads DataBench's questions and their tables, or skips the test when the corpus is not
// at hand.
func Load(t testing.TB) ([]devcorpus.Question, map[string]*schema.Table) {
	t.Helper()
	qs, err := devcorpus.DataBench()
	if errors.Is(err, devcorpus.ErrMissing) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return qs, Tables(qs)
}

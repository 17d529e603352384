package schema

import "github.com/analyst-workbench/workbench/emulator/analyst/language"

// ColumnType is what a column holds, as far as linking cares.
type ColumnType uint8

// The column types.
const (
	Number ColumnType = iota
	Category
	Boolean
	Date
	Text
	List
)

var typeNames = [...]string{"number", "category", "boolean", "date", "text", "list"}

// String returns the type's name.
func (t ColumnType) String() string { return typeNames[t] }

// Column describes one column of a table.
type Column struct {
	Name string
	Type ColumnType
	// Values are a categorical or boolean column's distinct values, a list column's distinct
	// items (others may leave it empty).
	Values []string
}

// Table describes the table a question is about.
type Table struct {
	// File is the table's file name, if known ("employees.csv"): its words may name the rows.
	File    string
	Columns []Column
}

// Vocabulary returns the table's names that the language front end must keep whole: column
// names and categorical values that are not one plain word ("Siblings_Spouses Aboard",
// "United States"). Plain words are linked after tagging, like any other word.
func (t *Table) Vocabulary() *language.Vocabulary {
	v := &language.Vocabulary{}
	for _, c := range t.Columns {
		if !plainWord(c.Name) {
			v.Add(c.Name)
		}
		if c.Type == Category || c.Type == List {
			for _, val := range c.Values {
				if !plainWord(val) && len(val) <= 60 {
					v.Add(val)
				}
			}
		}
	}
	return v
}

// plainWord reports a name the scanner reads as one word anyway: letters only, or a camelCase
// name whose parts are linked word by word.
func plainWord(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return s != ""
}

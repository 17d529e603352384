package chat_test

import (
	"slices"
	"testing"

	"github.com/analyst-workbench/workbench/chat"
)

func TestAskedForFileReadsRealPhrasings(t *testing.T) {
	for _, tc := range []struct {
		q    string
		exts []string // nil: asks for no file
	}{
		{"save a copy of the data as an Excel file", []string{"xlsx", "xls"}},
		{"export the AAPL column to a CSV file", []string{"csv"}},
		{"plot a histogram of the first numeric column and save it as a PNG file", []string{"png"}},
		{"give me the cleaned data as csv", []string{"csv"}},
		{"Give me a PNG of the monthly totals", []string{"png"}},
		{"Please download the cleaned rows", []string{}},
		{"Can you export the pivot in Excel format?", []string{"xlsx", "xls"}},
		{"Put the duplicates into a new file", []string{}},
		{"I'd like a downloadable version of the summary", []string{}},

		{"what is the average price", nil},
		{"how many rows are saved in the file", nil},
		{"load sales.csv and show the first rows", nil},
		{"read the attachment as csv and count the rows", nil},
		{"write a short summary of the columns", nil},
		{"compare the totals to the file from last week", nil},
		{"which columns are in the spreadsheet?", nil},
		{"```python\ndf.to_csv('out.csv')\n```\nwhat does this print?", nil},
	} {
		got := chat.AskedForFile(tc.q)
		asked := tc.exts != nil
		if got.Asked != asked || asked && !slices.Equal(got.Exts, tc.exts) {
			t.Errorf("AskedForFile(%q) = %+v, want asked=%v exts=%v", tc.q, got, tc.exts != nil, tc.exts)
		}
	}
}

func TestFileRequestIsMetByAFileOfAFormatAsked(t *testing.T) {
	csv := chat.AskedForFile("export the table to CSV")
	chart := []string{"figure-1.png"}
	if csv.MetBy(chart) || csv.MetBy(nil) {
		t.Error("a chart alone meets a request for a CSV file")
	}
	if !csv.MetBy(append(chart, "Table.CSV")) {
		t.Error("a CSV file does not meet a request for one")
	}
	if any := chat.AskedForFile("download the cleaned data"); !any.MetBy(chart) {
		t.Error("a request naming no format is not met by any file")
	}
}

func TestRephrasedAsksForTheFileByName(t *testing.T) {
	q := "plot a histogram of the price and save it as a PNG file."
	got := chat.AskedForFile(q).Rephrased(q)
	want := "plot a histogram of the price and save it as a PNG file. Write it to a file in /mnt/data named chart.png and link that file in your answer."
	if got != want {
		t.Errorf("Rephrased = %q,\nwant %q", got, want)
	}
	code := "Export the total to Excel.\n\n```python\ntotal = 2\n```"
	if got := chat.AskedForFile(code).Rephrased(code); got != code+"\n\nWrite it to a file in /mnt/data named result.xlsx and link that file in your answer." {
		t.Errorf("Rephrased after code = %q", got)
	}
}

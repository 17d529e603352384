package analyst

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// WikiTableQuestions in the development corpus: a fixed sample of its training questions
// (testdata/devcorpus/wtq/sample.tsv; SOURCE says how it was drawn), each about one Wikipedia
// table, with the values a right answer holds.

// wtqQuestion is one WikiTableQuestions question.
type wtqQuestion struct {
	ID       string   // WTQ's id, nt-35
	Question string   // the utterance, lower case as WTQ writes it
	Table    string   // the table's path under testdata/devcorpus/wtq, csv/204-csv/144.csv
	Targets  []string // the values a right answer holds, every one
	Type     string   // a rough type from the first words: see wtqType
}

// wtqTypes orders WTQ's rough types in the report.
var wtqTypes = []string{"how many", "which", "what", "who", "when", "yes-no", "other"}

// loadWTQ reads the sample's questions.
func loadWTQ(t testing.TB) []wtqQuestion {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(devcorpusDir, "wtq", "sample.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if lines[0] != "id\tutterance\tcontext\ttargetValue" {
		t.Fatalf("sample.tsv: header %q", lines[0])
	}
	var qs []wtqQuestion
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) != 4 {
			t.Fatalf("sample.tsv: %d fields in %q", len(f), l)
		}
		var targets []string
		for _, v := range strings.Split(f[3], "|") {
			// WTQ escapes a pipe, a newline and a backslash inside a value.
			targets = append(targets, strings.NewReplacer(`\p`, "|", `\n`, "\n", `\\`, `\`).Replace(v))
		}
		qs = append(qs, wtqQuestion{ID: f[0], Question: f[1], Table: f[2], Targets: targets, Type: wtqType(f[1])})
	}
	return qs
}

// wtqType gives a question a rough type from its first words, enough to see which kinds the
// analyst handles; "in what year…" and "name the…" fall under other.
func wtqType(q string) string {
	w := strings.Fields(strings.ToLower(q))
	if len(w) == 0 {
		return "other"
	}
	switch first := strings.Trim(w[0], ",.?"); {
	case first == "how" && len(w) > 1 && w[1] == "many":
		return "how many"
	case first == "which" || first == "what" || first == "when":
		return first
	case first == "who" || first == "whom" || first == "whose":
		return "who"
	case slices.Contains([]string{"is", "are", "was", "were", "does", "do", "did", "can", "has", "have", "will", "could"}, first):
		return "yes-no"
	}
	return "other"
}

// wtqRight reports whether the reply to question holds every target value, in the spirit of
// WTQ's own evaluator (this is not its code): a number is compared as a number, yes and no as
// the reply's verdict, text after normalizing both sides (accents, case and punctuation
// dropped) as words of the reply — more often than in the question, as dbRight does, since
// "which is a civil parish, aintree village or maghull?" is not answered by repeating both.
func wtqRight(targets []string, question, reply string) bool {
	text, asked := " "+wtqNorm(reply)+" ", " "+wtqNorm(question)+" "
	for _, v := range targets {
		v = strings.TrimSpace(v)
		switch low := strings.ToLower(v); {
		case low == "yes" || low == "no":
			want := verdictNo
			if low == "yes" {
				want = verdictYes
			}
			if replyVerdict(reply) != want {
				return false
			}
		case looksNumeric(wtqNumeral(v)):
			x, _ := strconv.ParseFloat(wtqNumeral(v), 64)
			if !holdsNumber(reply, x) {
				return false
			}
		default:
			n := wtqNorm(v)
			if n == "" || strings.Count(text, " "+n+" ") <= strings.Count(asked, " "+n+" ") {
				return false
			}
		}
	}
	return true
}

// wtqNumeral is a target as the number it may be (WTQ writes 2004, 7,169, +3, 1.5): without
// thousands separators or a plus sign.
func wtqNumeral(v string) string {
	return strings.ReplaceAll(strings.TrimPrefix(v, "+"), ",", "")
}

// wtqNorm folds text for comparison: accents dropped (é is e), lower case, typographic quotes
// and dashes as plain ones, every other character that is not a letter or digit a space, runs
// of spaces one.
func wtqNorm(s string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteByte(' ')
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func TestDevCorpusWTQ(t *testing.T) {
	t.Parallel()
	qs := loadWTQ(t)
	if len(qs) != 405 {
		t.Errorf("%d WTQ questions, want 405", len(qs))
	}
	n := map[string]int{}
	for _, q := range qs {
		n[q.Type]++
		if _, err := os.Stat(filepath.Join(devcorpusDir, "wtq", q.Table)); err != nil {
			t.Errorf("%s: %v", q.ID, err)
		}
	}
	t.Logf("WTQ sample by rough type: %v", n)
	cases := []struct {
		targets  []string
		reply    string
		want     bool
		question string
	}{
		{[]string{"2004"}, "The last year is **2004**.", true, ""},
		{[]string{"2004"}, "The last year is 2,004.", true, ""},
		{[]string{"Bangkok, Thailand"}, "It was in Bangkok, Thailand (2006).", true, ""},
		{[]string{"Bangkok, Thailand"}, "It was in Bangkok.", false, ""},
		{[]string{"1995", "1996"}, "1995 and 1996", true, ""},
		{[]string{"1995", "1996"}, "1995 only", false, ""},
		{[]string{"Marisela Moreno Montero"}, "marisela moreno montero, 24", true, ""},
		{[]string{"José"}, "Jose", true, ""},
		{[]string{"yes"}, "Yes, it did.", true, ""},
		{[]string{"no"}, "There is no such row.", false, ""},
		{[]string{"Ana"}, "Banana", false, ""},
		{[]string{"Aintree Village"}, "1 of 38 rows have Name in Aintree Village, Maghull", false, "which is a civil parish, aintree village or maghull?"},
		{[]string{"Aintree Village"}, "**Aintree Village**. Using the rows where Name in Aintree Village, Maghull", true, "which is a civil parish, aintree village or maghull?"},
	}
	for _, c := range cases {
		if got := wtqRight(c.targets, c.question, c.reply); got != c.want {
			t.Errorf("wtqRight(%q, %q) = %v, want %v", c.targets, c.reply, got, c.want)
		}
	}
	for q, want := range map[string]string{"how many times…": "how many", "who won?": "who", "in what city…": "other", "did he win?": "yes-no", "which team…": "which"} {
		if got := wtqType(q); got != want {
			t.Errorf("wtqType(%q) = %q, want %q", q, got, want)
		}
	}
}

package analyst

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// How a reply is judged against another person's answer. The answers were written for systems
// that return a bare value; the analyst returns prose with tables, so each expected value is
// looked for in the reply. The comparisons are this harness's own, written for that setting:
// strict where a loose match would count a reply right by accident (a count must be exact, a
// short category must stand as a word), loose where the reply only shows a value rounded.
// Only the reply's text is judged, as in the truth corpus: a reply that leaves its answer to
// "the table above" states no value.

// verdict is the yes/no a reply opens with.
type verdict int

const (
	noVerdict verdict = iota
	verdictYes
	verdictNo
)

// replyVerdict reads the verdict a reply opens with: its first word, past markup, is Yes or
// True, No or False. A verdict stated later ("…, so the answer is yes") is not read: an
// analyst reads the opening, and a "no" deep in the reply is as often "no missing values".
func replyVerdict(reply string) verdict {
	s := strings.TrimLeftFunc(reply, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	end := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		end = len(s)
	}
	switch strings.ToLower(s[:end]) {
	case "yes", "true":
		return verdictYes
	case "no", "false":
		return verdictNo
	}
	return noVerdict
}

// dbRight reports whether the reply to question holds a DataBench answer: a boolean as the
// reply's verdict, a number as some number of the reply, a category as a word or number of the
// reply, a list as every distinct item of it (order and repeats are not judged: the reply may
// show them as a table sorted its own way). A category the question itself names ("which fare
// range, 0-50 or 50-100…") must be named by the reply more often than by the question: the
// analyst repeats the question's values when it says which rows it used, and that repetition
// is no answer.
func dbRight(typ, answer, question, reply string) bool {
	switch typ {
	case "boolean":
		want := verdictNo
		if strings.EqualFold(strings.TrimSpace(answer), "true") {
			want = verdictYes
		}
		return replyVerdict(reply) == want
	case "number":
		x, err := strconv.ParseFloat(strings.TrimSpace(answer), 64)
		return err == nil && holdsNumber(reply, x)
	case "category":
		return holdsItem(reply, question, pyItem{text: answer})
	}
	items := pyListItems(answer)
	if len(items) == 0 {
		return holdsMissing(reply)
	}
	seen := map[string]bool{}
	for _, it := range items {
		if seen[it.text] {
			continue
		}
		seen[it.text] = true
		if !holdsItem(reply, question, it) {
			return false
		}
	}
	return true
}

// holdsItem reports whether the reply states one value: nothing at all (an empty answer, nan,
// None) as words saying it is missing, a number as a number, text as a word, more often than
// the question does or in bold.
func holdsItem(reply, question string, it pyItem) bool {
	s := strings.TrimSpace(it.text)
	if s == "" || !it.quoted && (s == "nan" || s == "None" || s == "NaN") {
		return holdsMissing(reply)
	}
	if looksNumeric(s) {
		x, _ := strconv.ParseFloat(s, 64)
		return holdsNumber(reply, x)
	}
	// Stated in bold, the value is the answer even when the question offers it among others
	// ("which fare range was the most common: (0-50, 50-100, …)").
	return wordCount(reply, s) > wordCount(question, s) || strings.Contains(strings.ToLower(reply), "**"+strings.ToLower(s)+"**")
}

// looksNumeric is true of text that is only a number ("236", "-1", "19.0"), quoted or not: a
// category such as a class or an id is compared as the number the reply shows it as.
func looksNumeric(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil && !strings.ContainsAny(s, "eEinfINF")
}

// devMissingWords are how a reply says that a value is missing.
var devMissingWords = regexp.MustCompile(`(?i)\b(missing|nan|none|empty|blank|no value|null|n/a)\b`)

func holdsMissing(reply string) bool { return devMissingWords.MatchString(reply) }

// wordCount counts where s appears in text, case-insensitively, as a word or words of its own:
// "M" is not found in "Mean", nor "Male" in "Female".
func wordCount(text, s string) int {
	low, w := strings.ToLower(text), strings.ToLower(s)
	n := 0
	for from := 0; ; {
		i := strings.Index(low[from:], w)
		if i < 0 {
			return n
		}
		i += from
		before, after := rune(' '), rune(' ')
		if i > 0 {
			before = lastRune(low[:i])
		}
		if j := i + len(w); j < len(low) {
			after = firstRune(low[j:])
		}
		if !(isWordRune(firstRune(w)) && isWordRune(before)) && !(isWordRune(lastRune(w)) && isWordRune(after)) {
			n++
		}
		from = i + 1
	}
}

func isWordRune(r rune) bool  { return unicode.IsLetter(r) || unicode.IsDigit(r) }
func firstRune(s string) rune { return []rune(s)[0] }
func lastRune(s string) rune  { r := []rune(s); return r[len(r)-1] }

// holdsNumber reports whether some number of the reply (as replyNumber finds them: 1,234.5,
// 38.3%) is x. A number glued to letters is part of a word, not a value: the 4 of "4th", the
// 5 of "Top5" or of "H5N1".
func holdsNumber(reply string, x float64) bool {
	for _, m := range replyNumber.FindAllStringIndex(reply, -1) {
		if m[0] > 0 && unicode.IsLetter(lastRune(reply[:m[0]])) || m[1] < len(reply) && unicode.IsLetter(firstRune(reply[m[1]:])) {
			continue
		}
		s := reply[m[0]:m[1]]
		percent := strings.HasSuffix(s, "%")
		y, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSuffix(s, "%"), ",", ""), 64)
		if err != nil {
			continue
		}
		if sameNumber(x, y) || percent && sameNumber(x, y/100) {
			return true
		}
	}
	return false
}

// sameNumber compares an expected number with one a reply shows. A whole number (a count, a
// rank, an id, a year) must be shown exactly; any other must agree to two decimals, or within
// 1% for a value the reply rounds to a few significant digits (56,333 for 56332.82).
func sameNumber(want, got float64) bool {
	round2 := func(v float64) float64 { return math.Round(v*100) / 100 }
	if want == math.Trunc(want) {
		return round2(got) == want
	}
	return round2(got) == round2(want) || math.Abs(got-want) <= 1e-2*math.Abs(want)
}

func TestDevCorpusJudge(t *testing.T) {
	t.Parallel()
	cases := []struct {
		typ, answer, reply string
		want               bool
		question           string
	}{
		{"boolean", "True", "**Yes** — the richest person is self-made.", true, ""},
		{"boolean", "False", "No: nobody paid more than $500.", true, ""},
		{"boolean", "True", "The richest person is self-made (`selfMade` is True).", false, ""},
		{"boolean", "False", "Nothing to say.", false, ""},
		{"number", "19.0", "The youngest is 19 years old.", true, ""},
		{"number", "343", "There are 345 in Technology.", false, ""},
		{"number", "5081.805590062112", "The mean of favorites is 5,081.81.", true, ""},
		{"number", "56332.81720430108", "The mean salary is 56,333 euros.", true, ""},
		{"number", "0.383", "38.3% survived.", true, ""},
		{"number", "4", "Rows where Result is 4th: 2 and 1.", false, ""},
		{"category", "M", "The gender is **M**.", true, ""},
		{"category", "M", "Mean age is 40.", false, ""},
		{"category", "male", "Most survivors are female.", false, ""},
		{"category", "1", "Class 1 has the most survivors (136).", true, ""},
		{"category", "", "The title is missing for that row.", true, ""},
		{"list[category]", "['United States', 'China', 'India']", "| country | n |\n| United States | 754 |\n| China | 523 |\n| India | 157 |", true, ""},
		{"list[category]", "['United States', 'China', 'India']", "United States, China and Germany", false, ""},
		{"list[category]", "[nan, 'Los Angeles']", "Los Angeles; the city is missing for one.", true, ""},
		{"list[number]", "[3543402, 3543402, 3543402]", "3,543,402 followers", true, ""},
		{"list[number]", "[13.0, 26.0, 7.75]", "13, 26 and 7.9", false, ""},
		{"list[category]", "['media, automotive', 'software']", "media, automotive; software", true, ""},
		{"category", "0-50", "Using the rows where Fare is 0-50 or 50-100.", false, "Which fare range, 0-50 or 50-100?"},
		{"category", "0-50", "**0-50**: 342 survivors. Using the rows where Fare is 0-50 or 50-100.", true, "Which fare range, 0-50 or 50-100?"},
	}
	for _, c := range cases {
		if got := dbRight(c.typ, c.answer, c.question, c.reply); got != c.want {
			t.Errorf("dbRight(%s, %q, %q) = %v, want %v", c.typ, c.answer, c.reply, got, c.want)
		}
	}
}

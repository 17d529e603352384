package analyst

// unread records a clause recognised but not understood, and what the rules can do instead.
func (r *clauseReader) unread(from, to int, hints ...string) {
	if r.ref.Unread != "" || from >= len(r.ws) {
		return
	}
	to = min(max(to, from+1), len(r.ws))
	r.ref.Unread = r.text[r.ws[from].at:r.ws[to-1].end]
	r.ref.UnreadHint = hints
}

// unsupported are words of preparations and derivations the rules do not do.
var unsupported = map[string][]string{
	"interpolate": {"fill missing values with the mean"}, "interpolation": {"fill missing values with the mean"},
	"interpolated": {"fill missing values with the mean"}, "interpolating": {"fill missing values with the mean"}, "ffill": {"fill missing values with the mode"},
	"bfill": {"fill missing values with the mode"}, "forward-fill": {"fill missing values with the mode"},
	"backfill": {"fill missing values with the mode"}, "winsorize": {"drop rows with missing values"},
	"winsorise": {"drop rows with missing values"},
	"smote":     nil, "oversample": nil, "undersample": nil, "pca": nil, "tf-idf": nil, "lemmatize": nil, "tokenize": nil, "pivot_longer": nil, "melt": nil, "unpivot": nil,
}

// deriveCue are the verbs that announce a new column: "create a column", "add a new feature".
var deriveCue = setOf("create", "add", "make", "compute", "calculate", "define", "derive", "construct", "engineer",
	"build", "generate", "introduce", "append")

// deriveNoun name a new column.
var deriveNoun = setOf("column", "feature", "variable", "field", "attribute", "indicator", "flag")

// noteUnread declines a question that announces a new column or a preparation the reader did
// not read: an answer without it would answer another question.
func (r *clauseReader) noteUnread() {
	if r.ref.Unread != "" {
		return
	}
	for i, w := range r.ws {
		if hints, ok := unsupported[w.low]; ok && !r.edited(i) {
			r.unread(i, i+1, hints...)
			return
		}
		if len(r.ref.Derived) > 0 || r.edited(i) {
			continue
		}
		if r.unreadBins(i) {
			return
		}
		if deriveCue[w.low] {
			j := r.skip(i+1, setOf("a", "an", "new", "another", "extra", "additional", "binary", "boolean", "derived", "calculated", "computed"))
			if j > i+1 && deriveNoun[r.word(j)] && !r.is(j+1, "chart", "graph", "plot") {
				r.unread(i, j+1)
				r.ref.UnreadHint, r.ref.HintAlone = r.exampleDerivations(), true
				return
			}
		}
		if r.is(i, "new") && deriveNoun[r.word(i+1)] {
			r.unread(i, i+2)
			r.ref.UnreadHint, r.ref.HintAlone = r.exampleDerivations(), true
			return
		}
		if r.is(i, "bin", "binned", "binning", "bucket", "bucketize", "discretize", "discretise") {
			c, _ := r.column(r.skip(i+1, setOf("the")))
			if nums := numericColumns(&r.p.Frames[0]); c == "" && len(nums) > 0 {
				c = nums[0]
			}
			r.unread(i, i+2, "bin "+c+" into 4 groups", "bin "+c+" into quartiles")
			return
		}
	}
}

// exampleDerivations are questions defining a column the reader can read, from the first
// numeric columns of the first file, offered when a definition could not be read.
func (r *clauseReader) exampleDerivations() []string {
	var nums []string
	f := &r.p.Frames[0]
	for _, n := range numericColumns(f) {
		if c := f.column(n); c.Unique > 10 && !isDerivedColumn(*c) {
			nums = append(nums, n) // quantities, not codes such as a class or a flag
		}
	}
	if len(nums) < 2 {
		return nil
	}
	a, b := nums[0], nums[1]
	return []string{
		"create a column " + newName(a, "plus", b) + " = " + a + " + " + b + " and give its mean",
		"create a column " + newName(a, "to", b, "ratio") + " = " + a + " / " + b + " and give its median",
		"bin " + a + " into 4 groups and count the rows per group",
	}
}

// edited reports whether word i lies in a clause already read.
func (r *clauseReader) edited(i int) bool {
	for _, e := range r.edits {
		if r.ws[i].at >= e.at && r.ws[i].end <= e.end {
			return true
		}
	}
	return false
}

// binNounSet are the nouns of bins, for finding bins asked without their edges.
var binNounSet = setOf("group", "groups", "band", "bands", "bracket", "brackets", "bin", "bins", "bucket", "buckets")

// unreadBins declines "by age group" when no bins were given: which edges is a guess.
func (r *clauseReader) unreadBins(i int) bool {
	c, j := r.column(i)
	if c == "" || !numericColumn(r.p, c) || !binNounSet[r.word(j)] || r.isDerived(c) {
		return false
	}
	r.unread(i, j+1, c+" groups 0-18, 19-40, 41+", c+" quartiles")
	return true
}

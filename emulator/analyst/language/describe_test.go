package language

import (
	"fmt"
	"strings"
)

// These helpers render chunks as short strings so that test tables stay readable.

// spanText is the question's text under a token span.
func spanText(s *Sentence, sp Span) string { return s.Words(sp) }

// phraseTexts renders each noun phrase as its text, with "<prep> <object>" for attachments:
// "the average fare [of passengers]".
func phraseTexts(s *Sentence) []string {
	var out []string
	for _, np := range s.Phrases {
		t := spanText(s, np.Span)
		for _, a := range np.Attachments {
			t += " [" + s.Tokens[a.Prep].Lower + " " + spanText(s, s.Phrases[a.Object].Span) + "]"
		}
		out = append(out, t)
	}
	return out
}

// comparisonTexts renders "op value" or "between lo..hi", with the adjective first when there
// is one: "old > 30".
func comparisonTexts(s *Sentence) []string {
	var out []string
	for _, c := range s.Comparisons {
		t := c.Op + " " + spanText(s, c.Value)
		if c.Op == "between" {
			t = "between " + spanText(s, c.Value) + ".." + spanText(s, c.Upper)
		}
		if c.Adjective >= 0 {
			t = s.Tokens[c.Adjective].Lemma + " " + t
		}
		out = append(out, t)
	}
	return out
}

// superlativeTexts renders "lemma", "lemma N", "least lemma", "top N", "bottom N".
func superlativeTexts(s *Sentence) []string {
	var out []string
	for _, sp := range s.Superlatives {
		t := sp.Lemma
		if t == "" {
			t = s.Tokens[sp.Word].Lower
		}
		if sp.Least && sp.Lemma != "" {
			t = "least " + t
		}
		if sp.N > 0 {
			t += fmt.Sprintf(" %d", sp.N)
		}
		out = append(out, t)
	}
	return out
}

// relativeTexts renders "antecedent head: clause".
func relativeTexts(s *Sentence) []string {
	var out []string
	for _, r := range s.Relatives {
		head := s.Tokens[s.Phrases[r.Antecedent].Head].Text
		out = append(out, head+": "+spanText(s, r.Span))
	}
	return out
}

// coordinationTexts renders the heads of the items joined by "+".
func coordinationTexts(s *Sentence) []string {
	var out []string
	for _, c := range s.Coordinations {
		var heads []string
		for _, k := range c.Items {
			heads = append(heads, s.Tokens[s.Phrases[k].Head].Text)
		}
		out = append(out, strings.Join(heads, "+"))
	}
	return out
}

// formText renders a part's form and the head of its focus: "wh country".
func formText(s *Sentence, f Form) string {
	t := f.Kind.String()
	if f.Focus >= 0 {
		t += " " + s.Tokens[s.Phrases[f.Focus].Head].Text
	}
	return t
}

// dump renders everything, for test failure messages.
func dump(s *Sentence) string {
	var b strings.Builder
	for _, t := range s.Tokens {
		fmt.Fprintf(&b, "%s/%s/%s ", t.Text, t.POS, t.Lemma)
	}
	for _, p := range s.Parts {
		fmt.Fprintf(&b, "\n part %q: %s", p.Joint, formText(s, p.Form))
	}
	fmt.Fprintf(&b, "\n phrases %q\n comparisons %q\n superlatives %q\n relatives %q\n coordinations %q",
		phraseTexts(s), comparisonTexts(s), superlativeTexts(s), relativeTexts(s), coordinationTexts(s))
	return b.String()
}

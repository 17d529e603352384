package analyst

import "testing"

// TestTableSentence_NamesWhatIsAsked: matching rows listed for a question that asks for
// something by name ("what is the network owned by …") open with the names asked for, each once;
// more matches than a sentence quotes, or no column asked, keep the count and the table.
func TestTableSentence_NamesWhatIsAsked(t *testing.T) {
	t.Parallel()
	rows := []any{[]any{"Once TV", "IPN"}, []any{"Once TV", "IPN"}, []any{"Canal 22", "IPN"}}
	m := marker{"where": "Owner is IPN", "total": 3.0, "of": 7.0, "key": "Network", "columns": []any{"Network", "Owner"}, "rows": rows}
	if got, want := tableSentence(m), "**Once TV**, **Canal 22**: the `Network` of the **3 of 7 rows** where Owner is IPN; the table above lists them."; got != want {
		t.Errorf("asked by name:\n got %s\nwant %s", got, want)
	}
	one := marker{"where": "Owner is IPN", "total": 1.0, "of": 7.0, "key": "Network", "columns": []any{"Network", "Owner"}, "rows": rows[:1]}
	if got, want := tableSentence(one), "**Once TV**: the `Network` of the **1 of 7 rows** where Owner is IPN; the table above lists it."; got != want {
		t.Errorf("one row:\n got %s\nwant %s", got, want)
	}
	for name, m := range map[string]marker{
		"no column asked": {"where": "Owner is IPN", "total": 3.0, "of": 7.0, "columns": []any{"Network", "Owner"}, "rows": rows},
		"many rows":       {"where": "Owner is IPN", "total": 40.0, "of": 70.0, "key": "Network", "columns": []any{"Network", "Owner"}, "rows": rows},
	} {
		if got := tableSentence(m); got[:2] != "**" || got[2] < '0' || got[2] > '9' {
			t.Errorf("%s: %s, want the count first", name, got)
		}
	}
}

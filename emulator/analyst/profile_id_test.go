package analyst

import "testing"

// TestIDColumns: one rule says which columns identify rows, for the
// statistics (no mean of an id) and for the words of a reply alike: "id"
// as a word of the name, whatever the case or the separator; a name that
// only ends in the letters is an id when each row has its own value.
func TestIDColumns(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"id": true, "ID": true, "contract_id": true, "order id": true, "order-id": true, "PassengerId": true,
		"userID": true, "Q3ID": true, "paid": false, "valid": false, "PAID": false, "Humid": false, "idle": false,
	} {
		if got := idName(name); got != want {
			t.Errorf("idName(%q) = %v, want %v", name, got, want)
		}
	}
	for _, tc := range []struct {
		c    Column
		want bool
	}{
		{Column{Name: "CustomerID", Unique: 40}, true}, // repeated in a table of orders: still an id
		{Column{Name: "userid", Unique: 100}, true},
		{Column{Name: "paid", Unique: 100}, false}, // an English word: amounts paid, each different
		{Column{Name: "paid", Unique: 2}, false},
		{Column{Name: "amount", Unique: 100}, false},
	} {
		if got := isID(&tc.c, 100); got != tc.want {
			t.Errorf("isID(%q, %d of 100 unique) = %v, want %v", tc.c.Name, tc.c.Unique, got, tc.want)
		}
	}
}

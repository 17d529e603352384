package views

import "time"

// Age buckets of the sidebar, newest first.
const (
	groupToday = "Today"
	groupWeek  = "Previous 7 days"
	groupOlder = "Older"
)

// GroupByAge splits newest-first items into Today / Previous 7 days / Older
// relative to now. A page that continues a listing passes the time of the
// last item already shown (zero otherwise), so that a group the previous page
// ended in does not get its heading twice.
func GroupByAge(items []ConversationItem, now time.Time, continuesAfter time.Time) []ConversationGroup {
	prev := ""
	if !continuesAfter.IsZero() {
		prev = ageGroup(continuesAfter, now)
	}
	var groups []ConversationGroup
	for _, it := range items {
		label := ageGroup(it.UpdatedAt, now)
		if len(groups) == 0 || label != prev {
			heading := label
			if len(groups) == 0 && label == prev {
				heading = ""
			}
			groups = append(groups, ConversationGroup{Label: heading})
			prev = label
		}
		g := &groups[len(groups)-1]
		g.Items = append(g.Items, it)
	}
	return groups
}

func ageGroup(t, now time.Time) string {
	t, now = t.Local(), now.Local()
	midnight := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	switch {
	case !t.Before(midnight):
		return groupToday
	case !t.Before(midnight.AddDate(0, 0, -7)):
		return groupWeek
	default:
		return groupOlder
	}
}

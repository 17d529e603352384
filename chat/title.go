package chat

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/analyst-workbench/workbench/store"
)

// titleRunes is about what a title may hold; the views cut what they
// cannot show, so no "…" is ever stored.
const titleRunes = 60

// TitleFrom names a conversation after its first question and the files it
// asks about: the first line that is not a code fence, cut at a word near
// 60 characters, then the first file's name when the question does not
// already name it and there is room.
func TitleFrom(question string, files []string) string {
	title := ""
	for _, line := range strings.Split(question, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "```") {
			continue
		}
		if strings.HasPrefix(question, "```") {
			title = "Python: " + cut(line, titleRunes-8)
		} else {
			title = cut(line, titleRunes)
		}
		break
	}
	if len(files) == 0 || title == "" || strings.Contains(strings.ToLower(question), strings.ToLower(files[0])) {
		return title
	}
	if withFile := title + " · " + files[0]; len([]rune(withFile)) <= titleRunes+24 {
		return withFile
	}
	return title
}

// TitleAfter names a conversation once its first answer is in: a plain
// question names it best as asked (TitleFrom), but a question that was
// only code is better named after what it made, its files or charts.
func TitleAfter(question string, files []string, a *Answer) string {
	title := TitleFrom(question, files)
	if !strings.HasPrefix(strings.TrimSpace(question), "```") || a == nil || len(a.Artifacts) == 0 {
		return title
	}
	var made []string
	tables := a.tableCSVs()
	for _, art := range a.Artifacts {
		if !tables[art.ID] && !slices.Contains(made, art.Name) {
			made = append(made, art.Name)
		}
	}
	if len(made) == 0 {
		return title
	}
	return "Python: " + cut(strings.Join(made, ", "), titleRunes-8)
}

// fileNames lists the names of files, in order.
func fileNames(files []*store.File) []string {
	names := make([]string, 0, len(files))
	for _, f := range files {
		names = append(names, f.Name)
	}
	return names
}

func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	i := n
	for i > n/2 && r[i] != ' ' {
		i--
	}
	return strings.TrimRight(string(r[:i]), " ,.;:")
}

// MaxTitle caps a title the user types; a longer one is refused, not cut.
const MaxTitle = 200

// CleanTitle normalises a title the user typed (runs of spaces become one)
// and checks it; problem says what is wrong, for the user.
func CleanTitle(s string) (title, problem string) {
	s = strings.Join(strings.Fields(s), " ")
	switch {
	case s == "":
		return "", "Enter a title."
	case !utf8.ValidString(s):
		return "", "The title contains invalid characters."
	case utf8.RuneCountInString(s) > MaxTitle:
		return "", "Keep the title under 200 characters."
	}
	return s, ""
}

// NewConversation starts an untitled conversation of the user's; its first
// question names it (TitleFrom).
func (s *Service) NewConversation(ctx context.Context, userID string) (*store.Conversation, error) {
	return s.db.CreateConversation(ctx, userID, store.DefaultTitle)
}

// Rename gives the user's conversation the title they typed, which must
// pass CleanTitle (a *UserError says why not); the answers no longer
// retitle it after that.
func (s *Service) Rename(ctx context.Context, userID, convID, typed string) (*store.Conversation, error) {
	title, problem := CleanTitle(typed)
	if problem != "" {
		return nil, &UserError{problem}
	}
	return s.db.RenameConversation(ctx, userID, convID, title)
}

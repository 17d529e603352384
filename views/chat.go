package views

import "time"

// Chat is the conversation page's chat column.
type Chat struct {
	Conversation Conversation
	// Turns are the latest turns; Earlier offers the ones before them.
	Turns   []ChatTurn
	Earlier EarlierTurns
	Files   FilesPanel
	// Session says whether the Code Interpreter session is alive.
	Session SessionBadge
	// Running is the run in progress, if any; the composer offers Stop.
	Running string
	// Shares is the Share control: its options and the live links.
	Shares SharePanel
	// Usage sums the tokens of every turn.
	InputTokens, OutputTokens int64
	// CodeSessions counts the Code Interpreter sessions the conversation opened.
	CodeSessions CodeSessions
}

// EarlierTurns offers the turns above those shown: a long conversation's
// page carries its latest turns, and earlier ones load on request.
type EarlierTurns struct {
	Count int    // turns before the first shown; 0: none
	URL   string // the next of them, nearest first
}

// ChatTurn is a question and its answer.
type ChatTurn struct {
	// QuestionHTML is the question rendered as markdown, so pasted code
	// reads as code.
	QuestionHTML string
	// Step, when set, makes the turn a step: code the user edited and ran
	// as written, shown as such instead of a question bubble.
	Step   *StepView
	Asked  time.Time
	Answer Answer
}

// StepView is the code of a step as the user sent it, and who sent it.
type StepView struct {
	Author string
	Code   string
	// CodeHTML is the highlighted code.
	CodeHTML string
}

// Answer is an assistant answer, live or finished.
type Answer struct {
	ConversationID string
	RunID          string
	// Live answers open the run's event stream.
	Live bool
	// LastSeq is the number of the last event shown.
	LastSeq int64
	Notices []string
	// Text is the answer's markdown, rendered and sanitized.
	TextHTML string
	Cells    []AnswerCell
	Error    string
	Status   RunStatus
	// AskAgain is the question of a turn that never started (the server
	// restarted while it waited), offered to put back in the composer.
	AskAgain string
	// StatusLine says what is happening while live: "Writing code…".
	StatusLine   string
	InputTokens  int64
	OutputTokens int64
	NewSession   bool
	// Files are the generated files other than charts; Charts the charts
	// no code cell claims.
	Files  []ArtifactChip
	Charts []Chart
	// Missing are generated files that could not be copied out.
	Missing []MissingFile
	// FileNotMade is set when the question asked for a file and none was
	// made; the answer ends by saying so.
	FileNotMade *FileNotMade
	// SharePath is set on a read-only shared page (/s/<token>): files are
	// served under it, and nothing that acts on the conversation shows.
	SharePath string
}

// MissingFile is a generated file that could not be copied out.
type MissingFile struct {
	FileID, Name string
}

// Chart is a chart kept as an artifact.
type Chart struct {
	ID, Name string
	// VegaLite is the URL of the chart's Vega-Lite spec, which the page
	// renders interactive over the PNG; NoImage says there is no PNG (ID
	// is then the spec's).
	VegaLite string
	NoImage  bool
}

// ArtifactChip is a generated file offered for download.
type ArtifactChip struct {
	ID, Name, ContentType string
	Size                  int64
	// Flaw is what is wrong with its bytes, if anything.
	Flaw FileFlaw
}

// FileNotMade says a question asked for a file and its answer made none.
type FileNotMade struct {
	// Rephrased is the question put so that the agent writes the file,
	// offered as a suggestion that fills the composer.
	Rephrased string
}

// ModuleNote is what the app knows of a module a cell failed to import.
type ModuleNote struct {
	// Module is what the code imported; Listed says whether what is
	// installed is known (the local engine) or not (hosted Foundry).
	Module string
	Listed bool
	// ImportAs is the import name of the installed Package of that name.
	ImportAs, Package string
	// Alternative is the nearest installed module, Use what of it to use.
	Alternative, Use string
}

// AnswerCell is one code cell of an answer.
type AnswerCell struct {
	ID string
	// CodeHTML is the highlighted code.
	CodeHTML string
	Code     string
	Logs     string
	// Loader, when set, says what the built-in analyst's file loader
	// loaded ("Loaded stocks.csv: 524 × 11"); the cell shows as that line.
	Loader string
	// Output is Logs split into text and tables, once the step has ended;
	// empty while it runs, when Logs shows as it streams.
	Output []OutputPart
	// LogsCut counts the earlier lines left out of Logs while the step
	// runs, so that a long stream re-renders only its tail.
	LogsCut int
	// ErrorLine is the last line of a Python traceback in Logs, if any.
	ErrorLine string
	// Module is set when the step failed to import a missing module.
	Module *ModuleNote
	Status CellState
	// Collapsed folds a finished step that is not the answer's result.
	Collapsed bool
	// Editable offers Edit and Run again: the cell's answer is finished
	// and the page is its owner's.
	Editable bool
	Duration time.Duration
	// Charts are the cell's images kept as artifacts; Images the inline
	// ones shown until they are.
	Charts []Chart
	Images []string
}

// SessionBadge is the session state shown above the chat.
type SessionBadge struct {
	State     SessionState
	ExpiresIn time.Duration
}

// FilesPanel lists a conversation's files with their profiles.
type FilesPanel struct {
	ConversationID string
	Files          []FileCard
	// MaxBytes is the largest file an upload may be: the page refuses a
	// bigger one before sending it.
	MaxBytes int64
}

// FileCard is one uploaded file.
type FileCard struct {
	ID, Name, Type string
	Size           int64
	// The profile of a table; Rows is 0 and Columns nil for other files.
	Format, Delimiter, Encoding string
	Rows                        int64
	RowsExact                   bool
	Sheets                      []string
	Columns                     []FileColumn
	Sample                      [][]string
	Problems                    []string
}

// FileColumn is one column of a table's profile.
type FileColumn struct {
	Name, Type string
	MissingPct float64
}

// UploadResult is the outcome of one uploaded file.
type UploadResult struct {
	Name  string
	OK    bool
	Error string
	// Notice is said of a file that was kept but that the engine may not read.
	Notice string
}

// Gallery is every chart and generated file of a conversation.
type Gallery struct {
	Conversation Conversation
	Charts       []GalleryItem
	Files        []GalleryItem
}

// GalleryItem is one artifact with where it came from.
type GalleryItem struct {
	ID, Name, ContentType string
	Size                  int64
	RunID, CellID         string
	// Question is the question whose answer made it.
	Question  string
	CreatedAt time.Time
	// Flaw is what is wrong with its bytes, if anything.
	Flaw FileFlaw
}

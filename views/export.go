package views

import "time"

// ExportChoice is the page that exports some steps of a conversation.
type ExportChoice struct {
	Conversation Conversation
	Steps        []ExportStep
}

// ExportStep is one question of the conversation, offered for export.
type ExportStep struct {
	RunID string
	// N numbers the steps from 1, as the report does.
	N        int
	Question string
	Asked    time.Time
}

package foundry

import (
	"encoding/json"
	"strings"
)

// ItemType is an item's "type", as the service spells it (stored and sent
// with the same bytes).
type ItemType string

// The item types the app acts on; others (reasoning, tool calls of other
// tools) pass through as they came.
const (
	ItemMessage  ItemType = "message"
	ItemCodeCall ItemType = "code_interpreter_call"
)

// Item is a conversation item or a response output item, reduced to what
// the chat layer uses. Raw keeps the whole object for anything else.
type Item struct {
	ID string `json:"id,omitzero"`
	// Type is ItemMessage, ItemCodeCall, "reasoning", ….
	Type   ItemType `json:"type,omitzero"`
	Role   string   `json:"role,omitzero"`
	Status string   `json:"status,omitzero"`
	// Text joins the text parts of a message.
	Text string `json:"text,omitzero"`
	// Code, ContainerID and Outputs are set on code_interpreter_call items.
	Code        string   `json:"code,omitzero"`
	ContainerID string   `json:"container_id,omitzero"`
	Outputs     []Output `json:"outputs,omitzero"`
	// Citations are the container file citations of a message's text.
	Citations []Citation      `json:"citations,omitzero"`
	Raw       json.RawMessage `json:"raw,omitzero"`
	// Extension is what the local engine says of a code call beside it, as
	// it sent it (its "x_workbench" member; the app reads it with package
	// cellext). The hosted service sends none.
	Extension json.RawMessage `json:"extension,omitzero"`
}

// Output is one output of a code_interpreter_call: "logs" or "image".
type Output struct {
	Type string `json:"type,omitzero"`
	Logs string `json:"logs,omitzero"`
	// URL is the image location (often a data: URL or a sandbox link).
	URL string `json:"url,omitzero"`
	// FileID is set when the service names the image by file id instead.
	FileID string `json:"file_id,omitzero"`
	// Extension is what the local engine says of a logs output beside its
	// text, as it sent it (its "x_workbench" member; see Item.Extension).
	Extension json.RawMessage `json:"extension,omitzero"`
}

// Citation points at a file the agent's code wrote, cited in the answer.
type Citation struct {
	ContainerID string `json:"container_id,omitzero"`
	FileID      string `json:"file_id,omitzero"`
	Filename    string `json:"filename,omitzero"`
	StartIndex  int    `json:"start_index,omitzero"`
	EndIndex    int    `json:"end_index,omitzero"`
}

type wireItem struct {
	ID          string          `json:"id"`
	Type        ItemType        `json:"type"`
	Role        string          `json:"role"`
	Status      string          `json:"status"`
	Code        string          `json:"code"`
	ContainerID string          `json:"container_id"`
	Outputs     []wireOutput    `json:"outputs"`
	Content     json.RawMessage `json:"content"`
	Extension   json.RawMessage `json:"x_workbench"`
}

type wireOutput struct {
	Type      string          `json:"type"`
	Logs      string          `json:"logs"`
	URL       string          `json:"url"`
	FileID    string          `json:"file_id"`
	Extension json.RawMessage `json:"x_workbench"`
}

type wirePart struct {
	Type        string           `json:"type"`
	Text        string           `json:"text"`
	Annotations []wireAnnotation `json:"annotations"`
}

type wireAnnotation struct {
	Type        string `json:"type"`
	ContainerID string `json:"container_id"`
	FileID      string `json:"file_id"`
	Filename    string `json:"filename"`
	StartIndex  int    `json:"start_index"`
	EndIndex    int    `json:"end_index"`
}

// citation converts an annotation that points into a container. Other
// annotation kinds (url_citation, file_citation of vector stores) are not
// artifacts and yield false.
func (a wireAnnotation) citation() (Citation, bool) {
	if a.Type != "container_file_citation" && (a.ContainerID == "" || a.FileID == "") {
		return Citation{}, false
	}
	return Citation{ContainerID: a.ContainerID, FileID: a.FileID, Filename: a.Filename,
		StartIndex: a.StartIndex, EndIndex: a.EndIndex}, true
}

func parseItem(raw json.RawMessage) (Item, error) {
	var w wireItem
	if err := json.Unmarshal(raw, &w); err != nil {
		return Item{}, err
	}
	it := Item{ID: w.ID, Type: w.Type, Role: w.Role, Status: w.Status, Code: w.Code,
		ContainerID: w.ContainerID, Raw: raw, Extension: w.Extension}
	for _, o := range w.Outputs {
		it.Outputs = append(it.Outputs, Output(o))
	}
	it.Text, it.Citations = parseContent(w.Content)
	return it, nil
}

// parseContent accepts content as a plain string (input messages may be
// sent that way) or as a list of parts.
func parseContent(raw json.RawMessage) (string, []Citation) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []wirePart
	if json.Unmarshal(raw, &parts) != nil {
		return "", nil
	}
	var text strings.Builder
	var cites []Citation
	for _, p := range parts {
		text.WriteString(p.Text)
		for _, a := range p.Annotations {
			if c, ok := a.citation(); ok {
				cites = append(cites, c)
			}
		}
	}
	return text.String(), cites
}

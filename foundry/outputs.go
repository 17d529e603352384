package foundry

import (
	"encoding/json"
	"path"
	"strings"
)

// Code interpreter outputs in background mode. The app asks for them with
// include ["code_interpreter_call.outputs"], yet users of the same API
// report "outputs": [] in the stream of a background response (OpenAI
// community, "Responses API background=true drops code_interpreter_call
// outputs"; shared/reference/foundry-recorded.md 6b), and whether Foundry
// does so is UNCONFIRMED. So a completed code call that arrived without
// outputs is read again from the stored response, with include, once the
// response has completed; one that still has none is reported as
// EventOutputsMissing, so that the cell can say so instead of looking
// empty.

// noteEmptyOutputs remembers a completed code call that came without
// outputs.
func (s *Stream) noteEmptyOutputs(it *Item) {
	if it.Type == ItemCodeCall && it.Status == "completed" && len(it.Outputs) == 0 {
		s.empty = append(s.empty, it.ID)
	}
}

// refetchOutputs reads the stored response once for the calls noted by
// noteEmptyOutputs and reports their outputs, or that none came.
func (s *Stream) refetchOutputs(w *wireEvent) {
	if len(s.empty) == 0 {
		return
	}
	ids := s.empty
	s.empty = nil
	found := s.storedOutputs()
	for _, id := range ids {
		base := Event{ItemID: id, ContainerID: s.item(id).containerID}
		outs := found[id]
		for _, o := range outs {
			switch o.Type {
			case "logs":
				s.emit(w, with(base, Event{Type: EventLogs, Text: o.Logs, Output: o}))
			case "image":
				s.emit(w, with(base, Event{Type: EventImage, Output: o}))
			}
		}
		if len(outs) == 0 {
			s.emit(w, with(base, Event{Type: EventOutputsMissing}))
		}
	}
}

// storedOutputs returns the outputs of the stored response's code calls by
// item id; none when the response cannot be read.
func (s *Stream) storedOutputs() map[string][]Output {
	if s.fetch == nil || s.responseID == "" {
		return nil
	}
	raw, err := s.fetch(s.responseID)
	if err != nil {
		return nil
	}
	var w wireStoredResponse
	if json.Unmarshal([]byte(raw), &w) != nil {
		return nil
	}
	out := map[string][]Output{}
	for _, r := range w.Output {
		if it, err := parseItem(r); err == nil && it.Type == ItemCodeCall {
			out[it.ID] = it.Outputs
		}
	}
	return out
}

// IsFigure reports a citation the service adds for a figure a cell showed:
// at start_index 0 and end_index 0, naming a file cfile_… whose filename is
// "<file_id>.png". It was recorded twice on the hosted service, before the
// citation of the file the code saved (azure-sdk-assets
// python/…/sample_agent_code_interpreter_with_files].json and
// …test_code_interpreter_with_file_in_conversation.json; foundry-recorded.md
// 6c). It is the same chart as the cell's image output, not a file of its
// own.
func (c Citation) IsFigure() bool {
	return c.StartIndex == 0 && c.EndIndex == 0 && IsFigureFile(c.FileID, c.Filename)
}

// IsFigureFile reports a container file named after its own id, as the
// service names the image of a shown figure; a file the code saved keeps
// the name the code gave it.
func IsFigureFile(fileID, name string) bool {
	ext := path.Ext(name)
	return fileID != "" && ext != "" && strings.TrimSuffix(path.Base(name), ext) == fileID
}

// MountPath is where the Code Interpreter puts an attached file:
// /mnt/data/<file_id>-<filename>, as recorded on the hosted service (the
// code of a live turn read
// "/mnt/data/assistant-XoFcRwENZLR9RMVypCZuHh-synthetic_500_quarterly_results.csv";
// foundry-recorded.md 6e). Code that names a file must use this path.
func MountPath(fileID, filename string) string {
	return "/mnt/data/" + fileID + "-" + filename
}

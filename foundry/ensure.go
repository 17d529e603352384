package foundry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// AgentSpec is the agent the app wants to exist.
type AgentSpec struct {
	// Name is the agent's name in the project.
	Name string
	// Model is the model deployment name.
	Model string
	// Instructions is the system prompt.
	Instructions string
	// FileSlots is how many files one turn can attach: the code_interpreter
	// tool gets file_ids {{file_1}} … {{file_N}}, filled per request through
	// structured inputs. Unused slots are sent empty and the service drops them.
	FileSlots int
	// MemoryLimit is the size of the tool's container: one of MemoryLimits
	// (MemoryLimitFor chooses one from the files' sizes), or "" for the
	// service's default, 1g.
	MemoryLimit string
	// Description is stored with a new version; it is not compared.
	Description string
	// Metadata is stored with a new version (≤16 pairs); it is not
	// compared. The app tags its versions with it, so that reconciliation
	// offers only its own.
	Metadata map[string]string
}

// maxFileSlots keeps the definition within reason; Code Interpreter itself
// caps attached files well below this.
const maxFileSlots = 100

// FilesInput is the structured input that names, in the agent's instructions, the
// files attached to a turn by the paths the sandbox has them at (see FileList): the
// service mounts an upload as /mnt/data/<file_id>-<filename>, not under its name.
const FilesInput = "files"

// filesInstruction ends the instructions of an agent with file slots.
const filesInstruction = "\n\nThe files attached to this question, at the paths to read them from: {{" + FilesInput + "}}"

// Attached is a file attached to a turn: its id in the service and its name.
type Attached struct {
	FileID   string
	Filename string
}

// FileList is the value of FilesInput for a turn's files: each one's mount path
// (MountPath) with the name the user knows it by, or "none".
func FileList(files []Attached) string {
	if len(files) == 0 {
		return "none"
	}
	parts := make([]string, len(files))
	for i, f := range files {
		parts[i] = MountPath(f.FileID, f.Filename) + " (" + f.Filename + ")"
	}
	return strings.Join(parts, "; ")
}

// FileSlot is the structured-input name of slot i (1-based): "file_1", ….
func FileSlot(i int) string { return "file_" + strconv.Itoa(i) }

// SlotInputs maps fileIDs onto the first slots and sets every other slot to
// "", so that a slot filled on an earlier turn is not left to a default.
func SlotInputs(fileIDs []string, slots int) (map[string]string, error) {
	if len(fileIDs) > slots {
		return nil, fmt.Errorf("foundry: %d files but only %d slots", len(fileIDs), slots)
	}
	in := make(map[string]string, slots)
	for i := 1; i <= slots; i++ {
		in[FileSlot(i)] = ""
		if i <= len(fileIDs) {
			in[FileSlot(i)] = fileIDs[i-1]
		}
	}
	return in, nil
}

// EnsureAgent makes sure the named agent has a version whose definition
// matches spec: the latest version is reused when it matches semantically,
// otherwise (or when the agent does not exist) a new version is created.
func (c *Client) EnsureAgent(ctx context.Context, spec AgentSpec) (AgentVersion, error) {
	if spec.Name == "" || spec.Model == "" {
		return AgentVersion{}, errors.New("foundry: ensure agent: name and model are required")
	}
	if spec.FileSlots < 0 || spec.FileSlots > maxFileSlots {
		return AgentVersion{}, fmt.Errorf("foundry: ensure agent: file slots %d out of range 0..%d", spec.FileSlots, maxFileSlots)
	}
	if err := checkMemoryLimit(spec.MemoryLimit); err != nil {
		return AgentVersion{}, fmt.Errorf("foundry: ensure agent: %w", err)
	}
	want := spec.definition()
	latest, err := c.LatestAgentVersion(ctx, spec.Name)
	switch {
	case err == nil && definitionMatches(want, latest.Definition):
		c.log.Debug("foundry: agent up to date", "agent", spec.Name, "version", latest.Version)
		return latest, nil
	case err != nil && !IsNotFound(err):
		return AgentVersion{}, fmt.Errorf("foundry: ensure agent: %w", err)
	}
	v, err := c.CreateAgentVersion(ctx, spec.Name, want, spec.Description, spec.Metadata)
	if err != nil {
		return AgentVersion{}, fmt.Errorf("foundry: ensure agent: %w", err)
	}
	c.log.Info("foundry: created agent version", "agent", v.Name, "version", v.Version)
	return v, nil
}

// definition is a prompt agent definition, as much of it as the app sets.
type definition struct {
	Kind             string                     `json:"kind"`
	Model            string                     `json:"model"`
	Instructions     string                     `json:"instructions,omitempty"`
	Tools            []tool                     `json:"tools"`
	StructuredInputs map[string]structuredInput `json:"structured_inputs,omitempty"`
}

type tool struct {
	Type string `json:"type"`
	// Container is either a container id (string) or an auto container.
	Container json.RawMessage `json:"container,omitempty"`
}

type autoContainer struct {
	Type        string   `json:"type"`
	FileIDs     []string `json:"file_ids"`
	MemoryLimit string   `json:"memory_limit,omitempty"`
}

type structuredInput struct {
	Description  string         `json:"description,omitempty"`
	Required     bool           `json:"required"`
	DefaultValue *string        `json:"default_value,omitempty"`
	Schema       map[string]any `json:"schema,omitempty"`
}

func (s AgentSpec) definition() definition {
	ids := make([]string, s.FileSlots)
	inputs := make(map[string]structuredInput, s.FileSlots)
	empty := ""
	for i := range s.FileSlots {
		name := FileSlot(i + 1)
		ids[i] = "{{" + name + "}}"
		inputs[name] = structuredInput{
			Description:  fmt.Sprintf("id of attached file %d, or empty", i+1),
			DefaultValue: &empty,
			Schema:       map[string]any{"type": "string"},
		}
	}
	container, _ := json.Marshal(autoContainer{Type: "auto", FileIDs: ids, MemoryLimit: s.MemoryLimit})
	d := definition{Kind: "prompt", Model: s.Model, Instructions: s.Instructions,
		Tools: []tool{{Type: "code_interpreter", Container: container}}}
	if s.FileSlots > 0 {
		none := "none"
		inputs[FilesInput] = structuredInput{Description: "paths of the attached files in the sandbox",
			DefaultValue: &none, Schema: map[string]any{"type": "string"}}
		d.Instructions += filesInstruction
		d.StructuredInputs = inputs
	}
	return d
}

// definitionMatches compares what the app cares about, not bytes: the
// service echoes definitions with defaults filled in (nulls, container
// options, schema details), so fields the app never sets are ignored, slot
// order and handlebars spacing do not matter, and instructions compare
// after trimming and line-ending normalisation.
func definitionMatches(want definition, raw json.RawMessage) bool {
	var got definition
	if len(raw) == 0 || json.Unmarshal(raw, &got) != nil {
		return false
	}
	if got.Kind != "" && got.Kind != want.Kind {
		return false
	}
	if !strings.EqualFold(got.Model, want.Model) || normText(got.Instructions) != normText(want.Instructions) {
		return false
	}
	if len(got.Tools) != len(want.Tools) {
		return false
	}
	for i := range want.Tools {
		if !toolMatches(want.Tools[i], got.Tools[i]) {
			return false
		}
	}
	return inputsMatch(want.StructuredInputs, got.StructuredInputs)
}

func toolMatches(want, got tool) bool {
	if got.Type != want.Type {
		return false
	}
	var w, g autoContainer
	_ = json.Unmarshal(want.Container, &w)
	if len(got.Container) > 0 && got.Container[0] != '{' {
		return false // a fixed container id is not our template
	}
	if len(got.Container) > 0 && json.Unmarshal(got.Container, &g) != nil {
		return false
	}
	// "if not provided, the service assumes auto" (reference §2).
	if g.Type != "" && g.Type != "auto" {
		return false
	}
	return slices.Equal(normIDs(w.FileIDs), normIDs(g.FileIDs)) && sameMemoryLimit(w.MemoryLimit, g.MemoryLimit)
}

func inputsMatch(want, got map[string]structuredInput) bool {
	if len(want) != len(got) {
		return false
	}
	for name, w := range want {
		g, ok := got[name]
		if !ok || g.Required != w.Required || deref(g.DefaultValue) != deref(w.DefaultValue) {
			return false
		}
		if t, ok := g.Schema["type"]; ok && t != w.Schema["type"] {
			return false
		}
	}
	return true
}

func normIDs(ids []string) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		out = append(out, strings.Join(strings.Fields(id), ""))
	}
	slices.Sort(out)
	return out
}

func normText(s string) string {
	return strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n"))
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

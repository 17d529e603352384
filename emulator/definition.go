package emulator

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// definition is the part of a prompt agent definition (or of a response request with a model and
// inline tools) that the emulator acts on. raw keeps everything as sent.
type definition struct {
	raw              map[string]any
	Model            string
	Instructions     string
	Tools            []tool
	StructuredInputs map[string]structuredInput
}

// tool is one entry of tools[]; only code_interpreter does anything here.
type tool struct {
	Type      string
	Container containerSpec
}

// containerSpec is a code_interpreter tool's container: an explicit id, or auto with files
// and a size.
type containerSpec struct {
	ID      string
	FileIDs []string
	// MemoryLimit is the auto container's memory_limit (see memoryLimits); "" when not asked.
	MemoryLimit string
}

// structuredInput declares one {{slot}} of a definition.
type structuredInput struct {
	Description  string `json:"description"`
	Required     bool   `json:"required"`
	DefaultValue any    `json:"default_value"`
}

// parseDefinition checks a prompt agent definition. Kind defaults to "prompt"; other kinds
// (hosted, workflow) are beyond what an emulator can run.
func parseDefinition(raw json.RawMessage) (definition, error) {
	var def definition
	if len(raw) == 0 || string(raw) == "null" {
		return def, errBadRequest("definition", "Missing required parameter: 'definition'.")
	}
	if err := json.Unmarshal(raw, &def.raw); err != nil {
		return def, errBadRequest("definition", "Invalid 'definition': expected an object.")
	}
	if def.raw["kind"] == nil {
		def.raw["kind"] = "prompt"
	}
	if def.raw["kind"] != "prompt" {
		return def, errBadRequest("definition.kind", "Agent kind %v is not supported by the local engine; use \"prompt\".", def.raw["kind"])
	}
	var typed struct {
		Model            string                     `json:"model"`
		Instructions     string                     `json:"instructions"`
		Tools            []json.RawMessage          `json:"tools"`
		StructuredInputs map[string]structuredInput `json:"structured_inputs"`
	}
	if err := json.Unmarshal(raw, &typed); err != nil {
		return def, errBadRequest("definition", "Invalid 'definition': %v.", err)
	}
	if typed.Model == "" {
		return def, errBadRequest("definition.model", "Missing required parameter: 'definition.model'.")
	}
	tools, err := parseTools(typed.Tools, "definition.tools")
	if err != nil {
		return def, err
	}
	def.Model, def.Instructions, def.Tools, def.StructuredInputs = typed.Model, typed.Instructions, tools, typed.StructuredInputs
	return def, nil
}

// maxTools is the hosted limit of tools per agent (foundry-api.md §2).
const maxTools = 128

// parseTools reads tools[]; unknown tool types are kept but ignored, since an emulator has no
// web search or MCP servers to call.
func parseTools(raws []json.RawMessage, param string) ([]tool, error) {
	if len(raws) > maxTools {
		return nil, &apiError{status: 400, code: "tool_limit_exceeded", param: param,
			message: fmt.Sprintf("Too many tools: %d, the limit is %d.", len(raws), maxTools)}
	}
	tools := make([]tool, 0, len(raws))
	for i, raw := range raws {
		var t struct {
			Type      string          `json:"type"`
			Container json.RawMessage `json:"container"`
		}
		if err := json.Unmarshal(raw, &t); err != nil || t.Type == "" {
			return nil, errBadRequest(fmt.Sprintf("%s[%d]", param, i), "Invalid tool: expected an object with a 'type'.")
		}
		spec, err := parseContainerSpec(t.Container, fmt.Sprintf("%s[%d].container", param, i))
		if err != nil {
			return nil, err
		}
		tools = append(tools, tool{Type: t.Type, Container: spec})
	}
	return tools, nil
}

// parseContainerSpec accepts a container id string or
// {"type":"auto","file_ids":[…],"memory_limit":…}; a missing container means auto, as the JS SDK
// documents.
func parseContainerSpec(raw json.RawMessage, param string) (containerSpec, error) {
	var spec containerSpec
	if len(raw) == 0 || string(raw) == "null" {
		return spec, nil
	}
	if json.Unmarshal(raw, &spec.ID) == nil {
		return spec, nil
	}
	var auto struct {
		Type        string   `json:"type"`
		FileIDs     []string `json:"file_ids"`
		MemoryLimit string   `json:"memory_limit"`
	}
	if err := json.Unmarshal(raw, &auto); err != nil || (auto.Type != "" && auto.Type != "auto") {
		return spec, errBadRequest(param, "Invalid container: expected a container id or {\"type\": \"auto\"}.")
	}
	if err := checkMemoryLimit(auto.MemoryLimit, param+".memory_limit"); err != nil {
		return spec, err
	}
	spec.FileIDs, spec.MemoryLimit = auto.FileIDs, auto.MemoryLimit
	return spec, nil
}

// codeInterpreter returns the first code_interpreter tool, if any.
func codeInterpreter(tools []tool) (tool, bool) {
	for _, t := range tools {
		if t.Type == "code_interpreter" {
			return t, true
		}
	}
	return tool{}, false
}

// slot matches a {{name}} placeholder, spaces allowed inside the braces.
var slot = regexp.MustCompile(`\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}`)

// substitute replaces every {{name}} in text with its value; an unknown name becomes "".
func substitute(text string, values map[string]string) string {
	if !strings.Contains(text, "{{") {
		return text
	}
	return slot.ReplaceAllStringFunc(text, func(m string) string {
		return values[slot.FindStringSubmatch(m)[1]]
	})
}

// slotValues merges the request's structured_inputs over the definition's defaults. Values that
// are not strings are written as JSON. A required input without a value is accepted and left
// empty (UNCONFIRMED whether the hosted service refuses it).
func slotValues(decl map[string]structuredInput, given map[string]any) map[string]string {
	values := map[string]string{}
	for name, in := range decl {
		if in.DefaultValue != nil {
			values[name] = stringify(in.DefaultValue)
		}
	}
	for name, v := range given {
		values[name] = stringify(v)
	}
	return values
}

func stringify(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	data, _ := json.Marshal(v)
	return string(data)
}

// resolveContainer substitutes the slots of a container spec and drops the file ids left empty,
// so that definitions can over-provision slots (foundry-api.md §7). A spec that names files
// keeps a non-nil list even when every slot is empty: the turn then chose no file, which is
// not the same as a tool that names none.
func resolveContainer(spec containerSpec, values map[string]string) containerSpec {
	out := containerSpec{ID: strings.TrimSpace(substitute(spec.ID, values)), MemoryLimit: spec.MemoryLimit}
	if spec.FileIDs != nil {
		out.FileIDs = []string{}
	}
	for _, id := range spec.FileIDs {
		if id = strings.TrimSpace(substitute(id, values)); id != "" {
			out.FileIDs = append(out.FileIDs, id)
		}
	}
	return out
}

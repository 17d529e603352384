package foundry

import "encoding/json"

// Model is the model deployment the version's definition names, "" when
// the definition names none or cannot be read.
func (v AgentVersion) Model() string {
	var d struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal(v.Definition, &d)
	return d.Model
}

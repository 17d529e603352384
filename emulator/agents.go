package emulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"regexp"
)

// agentRequest is the body of create agent, create version and update agent.
type agentRequest struct {
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Metadata    map[string]string `json:"metadata"`
	Definition  json.RawMessage   `json:"definition"`
}

// agentName follows the hosted rules as far as they are known: letters, digits and hyphens,
// up to 63 characters (UNCONFIRMED; underscores and dots are accepted too, liberally).
var agentName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$`)

// decodeJSON decodes a request body into v; an empty body decodes as {}.
func decodeJSON(r *http.Request, v any) error {
	data, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, 32<<20))
	if err != nil {
		return errBadRequest("", "could not read the request body: %v", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		return errMalformedJSON(err)
	}
	return nil
}

// readAgentRequest decodes and checks an agent request; nameFromPath overrides the body's name.
// A definition whose model deployment the emulator does not serve, or cannot give the tools it
// asks for, is refused as the hosted service refuses it (checkDeployment).
func (s *Server) readAgentRequest(r *http.Request, nameFromPath string) (agentRequest, error) {
	var req agentRequest
	if err := decodeJSON(r, &req); err != nil {
		return req, err
	}
	if nameFromPath != "" {
		req.Name = nameFromPath
	}
	if req.Metadata == nil {
		req.Metadata = map[string]string{} // so that "no metadata" equals "{}" when comparing
	}
	if err := checkMetadata(req.Metadata); err != nil {
		return req, err
	}
	if !agentName.MatchString(req.Name) {
		return req, errBadRequest("name", "Invalid agent name %q: use letters, digits and hyphens, at most 63 characters.", req.Name)
	}
	def, err := parseDefinition(req.Definition)
	if err != nil {
		return req, err
	}
	if err := s.checkDeployment(def); err != nil {
		return req, err
	}
	req.Definition, _ = json.Marshal(def.raw)
	return req, nil
}

func (s *Server) saveAgentVersion(r *http.Request, req agentRequest) (agentVersion, error) {
	v := agentVersion{Object: "agent.version", Name: req.Name, Description: req.Description,
		Metadata: req.Metadata, Status: "active", Definition: req.Definition}
	return s.st.createAgentVersion(r.Context(), v, s.now())
}

// createAgent creates an agent with its first version; an existing name is a conflict.
func (s *Server) createAgent(w http.ResponseWriter, r *http.Request) error {
	req, err := s.readAgentRequest(r, "")
	if err != nil {
		return err
	}
	if _, err := s.st.agentVersion(r.Context(), req.Name, ""); err == nil {
		return &apiError{status: http.StatusConflict, code: "conflict",
			message: "Agent '" + req.Name + "' already exists; create a new version instead."}
	}
	v, err := s.saveAgentVersion(r, req)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, newAgentObject(v))
	return nil
}

// createAgentVersion adds a version, creating the agent if it does not exist yet.
func (s *Server) createAgentVersion(w http.ResponseWriter, r *http.Request) error {
	req, err := s.readAgentRequest(r, r.PathValue("agent"))
	if err != nil {
		return err
	}
	v, err := s.saveAgentVersion(r, req)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}

// updateAgent makes a new version only when something changed, and returns the agent.
func (s *Server) updateAgent(w http.ResponseWriter, r *http.Request) error {
	name := r.PathValue("agent")
	latest, err := s.latestAgent(r, name)
	if err != nil {
		return err
	}
	req, err := s.readAgentRequest(r, name)
	if err != nil {
		return err
	}
	if !sameJSON(req.Definition, latest.Definition) || req.Description != latest.Description ||
		!sameJSON(req.Metadata, latest.Metadata) {
		if latest, err = s.saveAgentVersion(r, req); err != nil {
			return err
		}
	}
	writeJSON(w, http.StatusOK, newAgentObject(latest))
	return nil
}

func (s *Server) latestAgent(r *http.Request, name string) (agentVersion, error) {
	v, err := s.st.agentVersion(r.Context(), name, "")
	if errors.Is(err, errNoRow) {
		return v, errNotFound("Agent '%s' not found.", name)
	}
	return v, err
}

func (s *Server) showAgent(w http.ResponseWriter, r *http.Request) error {
	v, err := s.latestAgent(r, r.PathValue("agent"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, newAgentObject(v))
	return nil
}

func (s *Server) listAgents(w http.ResponseWriter, r *http.Request) error {
	p, err := parsePageQuery(r, true)
	if err != nil {
		return err
	}
	latest, err := s.st.latestAgentVersions(r.Context())
	if err != nil {
		return err
	}
	agents := make([]agentObject, len(latest))
	for i, v := range latest {
		agents[i] = newAgentObject(v)
	}
	writeJSON(w, http.StatusOK, paginate(agents, p, func(a agentObject) string { return a.Name }))
	return nil
}

func (s *Server) deleteAgent(w http.ResponseWriter, r *http.Request) error {
	name := r.PathValue("agent")
	if err := s.st.deleteAgent(r.Context(), name); errors.Is(err, errNoRow) {
		return errNotFound("Agent '%s' not found.", name)
	} else if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "agent.deleted", "name": name, "deleted": true})
	return nil
}

func (s *Server) listAgentVersions(w http.ResponseWriter, r *http.Request) error {
	p, err := parsePageQuery(r, true)
	if err != nil {
		return err
	}
	name := r.PathValue("agent")
	vs, err := s.st.agentVersionsOf(r.Context(), name)
	if err != nil {
		return err
	}
	if len(vs) == 0 {
		return errNotFound("Agent '%s' not found.", name)
	}
	writeJSON(w, http.StatusOK, paginate(vs, p, func(v agentVersion) string { return v.Version }))
	return nil
}

func (s *Server) showAgentVersion(w http.ResponseWriter, r *http.Request) error {
	name, version := r.PathValue("agent"), r.PathValue("version")
	v, err := s.st.agentVersion(r.Context(), name, version)
	if errors.Is(err, errNoRow) {
		return errNotFound("Agent '%s' version '%s' not found.", name, version)
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}

func (s *Server) deleteAgentVersion(w http.ResponseWriter, r *http.Request) error {
	name, version := r.PathValue("agent"), r.PathValue("version")
	if err := s.st.deleteAgentVersion(r.Context(), name, version); errors.Is(err, errNoRow) {
		return errNotFound("Agent '%s' version '%s' not found.", name, version)
	} else if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "agent.version.deleted", "name": name,
		"version": version, "deleted": true})
	return nil
}

// sameJSON compares two values by their canonical JSON (object keys sorted).
func sameJSON(a, b any) bool {
	canon := func(v any) []byte {
		if raw, ok := v.(json.RawMessage); ok {
			var x any
			if json.Unmarshal(raw, &x) == nil {
				v = x
			}
		}
		data, _ := json.Marshal(v)
		return data
	}
	return bytes.Equal(canon(a), canon(b))
}

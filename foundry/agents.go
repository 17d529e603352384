package foundry

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
)

// AgentVersion is one immutable version of a prompt agent.
type AgentVersion struct {
	// ID is the service's id for the version; its "name:version" format is
	// UNCONFIRMED, so it is never parsed.
	ID string
	// Name is the agent's name.
	Name string
	// Version is the version label, "1", "2", …: a string on the wire, but a
	// number is accepted too.
	Version string
	// Description is free text.
	Description string
	// Metadata is the version's key/value metadata.
	Metadata map[string]string
	// Status is creating|active|failed|deleting|deleted; prompt agents are active.
	Status string
	// CreatedAt is when the version was made.
	CreatedAt time.Time
	// Definition is the definition as the service returned it.
	Definition json.RawMessage
}

// AgentRef names the agent a response runs as; an empty Version means latest.
type AgentRef struct {
	Name    string
	Version string
}

type wireAgentVersion struct {
	ID          string            `json:"id"`
	Name        string            `json:"name"`
	Version     looseString       `json:"version"`
	Description string            `json:"description"`
	Metadata    map[string]string `json:"metadata"`
	Status      string            `json:"status"`
	CreatedAt   unixTime          `json:"created_at"`
	Definition  json.RawMessage   `json:"definition"`
}

func (w wireAgentVersion) agentVersion() AgentVersion {
	return AgentVersion{ID: w.ID, Name: w.Name, Version: string(w.Version), Description: w.Description,
		Metadata: w.Metadata, Status: w.Status, CreatedAt: time.Time(w.CreatedAt), Definition: w.Definition}
}

type wireAgent struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Versions struct {
		Latest *wireAgentVersion `json:"latest"`
	} `json:"versions"`
}

type wirePage[T any] struct {
	Data    []T    `json:"data"`
	LastID  string `json:"last_id"`
	HasMore bool   `json:"has_more"`
}

// CreateAgentVersion adds a version with definition (any JSON-marshalable
// value), description and metadata (both optional) to the named agent,
// creating the agent if it does not exist.
func (c *Client) CreateAgentVersion(ctx context.Context, name string, definition any, description string, metadata map[string]string) (AgentVersion, error) {
	body := map[string]any{"definition": definition}
	if description != "" {
		body["description"] = description
	}
	if len(metadata) > 0 {
		body["metadata"] = metadata
	}
	var w wireAgentVersion
	err := c.agentsDo(ctx, http.MethodPost, agentPath(name, "versions"), nil, body, &w)
	if IsNotFound(err) {
		// UNCONFIRMED whether create-version makes a missing agent (the
		// Python SDK only has create_version, which suggests so). If the
		// service says 404, create the agent itself, which yields version 1.
		body["name"] = name
		var a wireAgent
		if err = c.agentsDo(ctx, http.MethodPost, "/agents", nil, body, &a); err == nil {
			if a.Versions.Latest == nil {
				return AgentVersion{}, fmt.Errorf("foundry: create agent %s: no version in answer", name)
			}
			w = *a.Versions.Latest
		}
	}
	if err != nil {
		return AgentVersion{}, fmt.Errorf("foundry: create agent version %s: %w", name, err)
	}
	if w.Name == "" {
		w.Name = name
	}
	return w.agentVersion(), nil
}

// AgentVersion returns one version of the named agent.
func (c *Client) AgentVersion(ctx context.Context, name, version string) (AgentVersion, error) {
	var w wireAgentVersion
	if err := c.agentsDo(ctx, http.MethodGet, agentPath(name, "versions", version), nil, nil, &w); err != nil {
		return AgentVersion{}, fmt.Errorf("foundry: agent version %s/%s: %w", name, version, err)
	}
	return w.agentVersion(), nil
}

// AgentVersions lists every version of the named agent, oldest first.
func (c *Client) AgentVersions(ctx context.Context, name string) ([]AgentVersion, error) {
	var out []AgentVersion
	q := url.Values{"limit": {"100"}, "order": {"asc"}}
	for range maxPages {
		var page wirePage[wireAgentVersion]
		if err := c.agentsDo(ctx, http.MethodGet, agentPath(name, "versions"), q, nil, &page); err != nil {
			return nil, fmt.Errorf("foundry: list agent versions %s: %w", name, err)
		}
		for _, w := range page.Data {
			out = append(out, w.agentVersion())
		}
		next := nextCursor(page.LastID, page.Data, func(w wireAgentVersion) string { return w.ID })
		if !page.HasMore || next == "" || next == q.Get("after") {
			break
		}
		q.Set("after", next)
	}
	sortVersions(out)
	return out, nil
}

// maxPages stops a listing whose cursor never ends; 100 pages of 100 is far
// beyond anything this app creates.
const maxPages = 100

// nextCursor prefers the page's last_id and falls back to the id of the last
// element, for list answers that omit last_id.
func nextCursor[T any](lastID string, data []T, id func(T) string) string {
	if lastID != "" || len(data) == 0 {
		return lastID
	}
	return id(data[len(data)-1])
}

// sortVersions orders by creation time, then numerically by label, so that
// the last element is the newest whatever order the service used.
func sortVersions(vs []AgentVersion) {
	sort.SliceStable(vs, func(i, j int) bool {
		if !vs[i].CreatedAt.Equal(vs[j].CreatedAt) {
			return vs[i].CreatedAt.Before(vs[j].CreatedAt)
		}
		a, errA := strconv.Atoi(vs[i].Version)
		b, errB := strconv.Atoi(vs[j].Version)
		if errA == nil && errB == nil {
			return a < b
		}
		return vs[i].Version < vs[j].Version
	})
}

// LatestAgentVersion returns the newest version of the named agent.
func (c *Client) LatestAgentVersion(ctx context.Context, name string) (AgentVersion, error) {
	var a wireAgent
	if err := c.agentsDo(ctx, http.MethodGet, agentPath(name), nil, nil, &a); err != nil {
		return AgentVersion{}, fmt.Errorf("foundry: agent %s: %w", name, err)
	}
	if a.Versions.Latest != nil {
		return a.Versions.Latest.agentVersion(), nil
	}
	// Liberal: an Agent without versions.latest falls back to the listing.
	vs, err := c.AgentVersions(ctx, name)
	if err != nil {
		return AgentVersion{}, err
	}
	if len(vs) == 0 {
		return AgentVersion{}, fmt.Errorf("foundry: agent %s: %w", name,
			&APIError{StatusCode: http.StatusNotFound, Message: "agent has no versions"})
	}
	return vs[len(vs)-1], nil
}

// DeleteAgentVersion deletes one version of the named agent.
func (c *Client) DeleteAgentVersion(ctx context.Context, name, version string) error {
	if err := c.agentsDo(ctx, http.MethodDelete, agentPath(name, "versions", version), nil, nil, nil); err != nil {
		return fmt.Errorf("foundry: delete agent version %s/%s: %w", name, version, err)
	}
	return nil
}

// DeleteAgent deletes the named agent with all its versions.
func (c *Client) DeleteAgent(ctx context.Context, name string) error {
	if err := c.agentsDo(ctx, http.MethodDelete, agentPath(name), nil, nil, nil); err != nil {
		return fmt.Errorf("foundry: delete agent %s: %w", name, err)
	}
	return nil
}

func agentPath(name string, rest ...string) string {
	p := "/agents/" + url.PathEscape(name)
	for _, r := range rest {
		p += "/" + url.PathEscape(r)
	}
	return p
}

// agentsDo sends one request through the azcore pipeline (bearer token,
// retries honouring retry-after-ms / retry-after) and decodes a 2xx JSON
// answer into out. Errors are *APIError, unwrapped, for the caller to wrap.
func (c *Client) agentsDo(ctx context.Context, method, path string, query url.Values, body, out any) error {
	req, err := runtime.NewRequest(ctx, method, c.endpoint+path)
	if err != nil {
		return err
	}
	q := url.Values{}
	for k, v := range query {
		q[k] = v
	}
	q.Set("api-version", apiVersion)
	req.Raw().URL.RawQuery = q.Encode()
	req.Raw().Header.Set("Accept", "application/json")
	if body != nil {
		if err := runtime.MarshalAsJSON(req, body); err != nil {
			return err
		}
	}
	resp, err := c.pipeline.Do(req)
	if err != nil {
		return err
	}
	defer readAllClose(resp.Body)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		ae := newAPIError(resp)
		c.log.Log(ctx, failureLevel(ae.StatusCode), "foundry: request failed", "method", method, "path", path,
			"status", ae.StatusCode, "code", ae.Code, "request_id", ae.RequestID)
		return ae
	}
	if out == nil {
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("decode answer: %w", err)
	}
	return nil
}

// unixTime decodes unix seconds (integer or float) and, liberally, an
// RFC 3339 string; null stays zero.
type unixTime time.Time

// UnmarshalJSON implements json.Unmarshaler.
func (t *unixTime) UnmarshalJSON(b []byte) error {
	var s looseString
	if err := s.UnmarshalJSON(b); err != nil || s == "" {
		return err
	}
	if f, err := strconv.ParseFloat(string(s), 64); err == nil {
		*t = unixTime(time.Unix(int64(f), 0).UTC())
		return nil
	}
	if v, err := time.Parse(time.RFC3339Nano, string(s)); err == nil {
		*t = unixTime(v.UTC())
	}
	return nil
}

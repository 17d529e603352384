package emulator

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strconv"
	"time"
)

// agentVersion is the AgentVersion object of foundry-api.md §2, stored as returned.
type agentVersion struct {
	Object      string            `json:"object"`
	ID          string            `json:"id"`
	Name        string            `json:"name"`
	Version     string            `json:"version"`
	Description string            `json:"description"`
	Metadata    map[string]string `json:"metadata"`
	CreatedAt   int64             `json:"created_at"`
	Status      string            `json:"status"`
	Definition  json.RawMessage   `json:"definition"`
	AgentGUID   string            `json:"agent_guid"`
}

// agentObject is the Agent object: its name and latest version.
type agentObject struct {
	Object   string        `json:"object"`
	ID       string        `json:"id"`
	Name     string        `json:"name"`
	Versions agentVersions `json:"versions"`
}

type agentVersions struct {
	Latest agentVersion `json:"latest"`
}

func newAgentObject(latest agentVersion) agentObject {
	return agentObject{Object: "agent", ID: latest.Name, Name: latest.Name, Versions: agentVersions{Latest: latest}}
}

// createAgentVersion appends a version to agent name, creating the agent if needed: the Python
// SDK ≥2.0.0b4 creates agents only through create_version. Version numbers are never reused,
// even after a version is deleted.
func (st *store) createAgentVersion(ctx context.Context, v agentVersion, now time.Time) (agentVersion, error) {
	err := st.withTx(ctx, func(tx *sql.Tx) error {
		var last int
		var guid string
		err := tx.QueryRowContext(ctx, `SELECT last_version, id FROM agents WHERE name = ?`, v.Name).Scan(&last, &guid)
		if errors.Is(err, sql.ErrNoRows) {
			guid = newID("agent_")
			_, err = tx.ExecContext(ctx, `INSERT INTO agents (name, id, created_at, last_version) VALUES (?, ?, ?, 0)`,
				v.Name, guid, now.Unix())
		}
		if err != nil {
			return err
		}
		v.Version = strconv.Itoa(last + 1)
		v.ID = v.Name + ":" + v.Version
		v.AgentGUID = guid
		v.CreatedAt = now.Unix()
		body, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE agents SET last_version = ? WHERE name = ?`, last+1, v.Name); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO agent_versions (name, version, body) VALUES (?, ?, ?)`,
			v.Name, last+1, string(body))
		return err
	})
	return v, err
}

// agentVersionsOf lists the live versions of an agent, oldest first.
func (st *store) agentVersionsOf(ctx context.Context, name string) ([]agentVersion, error) {
	return listObjects[agentVersion](ctx, st.db,
		`SELECT body FROM agent_versions WHERE name = ? ORDER BY version`, name)
}

// agentVersion returns one version; an empty version means the latest.
func (st *store) agentVersion(ctx context.Context, name, version string) (agentVersion, error) {
	query, args := `SELECT body FROM agent_versions WHERE name = ? ORDER BY version DESC LIMIT 1`, []any{name}
	if version != "" {
		n, err := strconv.Atoi(version)
		if err != nil {
			return agentVersion{}, errNoRow
		}
		query, args = `SELECT body FROM agent_versions WHERE name = ? AND version = ?`, []any{name, n}
	}
	vs, err := listObjects[agentVersion](ctx, st.db, query, args...)
	if err != nil {
		return agentVersion{}, err
	}
	if len(vs) == 0 {
		return agentVersion{}, errNoRow
	}
	return vs[0], nil
}

// latestAgentVersions returns the latest version of every agent, oldest agent first.
func (st *store) latestAgentVersions(ctx context.Context) ([]agentVersion, error) {
	return listObjects[agentVersion](ctx, st.db, `SELECT v.body FROM agents a
		JOIN agent_versions v ON v.name = a.name
		AND v.version = (SELECT MAX(version) FROM agent_versions WHERE name = a.name)
		ORDER BY a.created_at, a.name`)
}

// deleteAgent removes an agent and all its versions.
func (st *store) deleteAgent(ctx context.Context, name string) error {
	return st.withTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM agent_versions WHERE name = ?`, name); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM agents WHERE name = ?`, name)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errNoRow
		}
		return nil
	})
}

// deleteAgentVersion removes one version; the agent goes with its last version.
func (st *store) deleteAgentVersion(ctx context.Context, name, version string) error {
	n, err := strconv.Atoi(version)
	if err != nil {
		return errNoRow
	}
	return st.withTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM agent_versions WHERE name = ? AND version = ?`, name, n)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errNoRow
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM agents WHERE name = ?
			AND NOT EXISTS (SELECT 1 FROM agent_versions WHERE name = ?)`, name, name)
		return err
	})
}

-- +goose Up
-- Two more kinds of outbox entries: foundry_response, a stored response of
-- a purged conversation's question (runs.response_id), and agent, the app's
-- Foundry agent with all its versions, deleted at an administrator's
-- request (target: the agent's name). See the SQLite twin.
ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check CHECK (kind IN ('conversation', 'foundry_file',
    'foundry_conversation', 'container_file', 'agent_version', 'blob', 'foundry_response', 'agent'));

-- +goose Down
-- Entries of the two kinds are dropped: the older code cannot carry them out.
DELETE FROM outbox WHERE kind IN ('foundry_response', 'agent');
ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check CHECK (kind IN ('conversation', 'foundry_file',
    'foundry_conversation', 'container_file', 'agent_version', 'blob'));

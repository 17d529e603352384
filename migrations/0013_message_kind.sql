-- +goose Up
-- A user message is a question for the agent, or a step: code the analyst
-- edited and ran as written in the conversation's session. A step records
-- who ran it, so the page can say "Edited by <user>" after a reload too.
ALTER TABLE messages ADD COLUMN kind TEXT NOT NULL DEFAULT 'question' CHECK (kind IN ('question', 'step'));
ALTER TABLE messages ADD COLUMN author_id TEXT REFERENCES users (id) ON DELETE SET NULL;

-- +goose Down
ALTER TABLE messages DROP COLUMN author_id;
ALTER TABLE messages DROP COLUMN kind;

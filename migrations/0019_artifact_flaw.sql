-- +goose Up
-- What chat found wrong with a generated file's bytes: '' (nothing),
-- 'empty', 'not_type' (a PNG, PDF ... whose bytes are not one) or
-- 'not_text' (a CSV, JSON ... holding binary data). Such a file is kept,
-- and the gallery says what is wrong with it.
ALTER TABLE artifacts ADD COLUMN flaw TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE artifacts DROP COLUMN flaw;

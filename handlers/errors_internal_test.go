package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/labstack/echo/v4"
)

// TestDescribeError_Refusals: a refusal meant for the user is told as it
// is, with 422 or the status refuse gave it, wrapped or not; any other
// error is a 500 that tells nothing of itself.
func TestDescribeError_Refusals(t *testing.T) {
	t.Parallel()
	busy := &chat.UserError{Msg: "Wait for the answer to finish, then try again."}
	cases := []struct {
		name   string
		err    error
		status int
		msg    string
	}{
		{"a refusal", busy, http.StatusUnprocessableEntity, busy.Msg},
		{"a wrapped refusal", fmt.Errorf("start: %w", busy), http.StatusUnprocessableEntity, busy.Msg},
		{"a refusal with its status", refuse(http.StatusConflict, busy), http.StatusConflict, busy.Msg},
		{"a refusal the handler gave a status", echo.NewHTTPError(http.StatusRequestEntityTooLarge, busy.Msg).SetInternal(busy),
			http.StatusRequestEntityTooLarge, busy.Msg},
		{"a failure given a status", refuse(http.StatusConflict, errors.New("disk on fire")), http.StatusInternalServerError, ""},
		{"a failure", errors.New("disk on fire"), http.StatusInternalServerError, ""},
	}
	for _, c := range cases {
		e := describeError(c.err)
		if e.Status != c.status || (c.msg != "" && e.Message != c.msg) {
			t.Errorf("%s: %d %q, want %d %q", c.name, e.Status, e.Message, c.status, c.msg)
		}
		if c.status == http.StatusInternalServerError && e.Message == c.err.Error() {
			t.Errorf("%s: the internal error reached the user", c.name)
		}
	}
}

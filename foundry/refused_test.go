package foundry

import (
	"errors"
	"fmt"
	"testing"
)

// TestIsRefused: the 4xx answers that repeat until someone changes the
// configuration are refusals; those that pass by themselves, and failures
// that never got an HTTP answer, are not.
func TestIsRefused(t *testing.T) {
	t.Parallel()
	wrap := func(status int) error {
		return fmt.Errorf("foundry: create agent version: %w", &APIError{StatusCode: status, Code: "x", Message: "m"})
	}
	for status, want := range map[int]bool{400: true, 401: true, 403: true, 404: true, 422: true,
		408: false, 409: false, 429: false, 500: false, 503: false} {
		if got := IsRefused(wrap(status)); got != want {
			t.Errorf("IsRefused(%d) = %v, want %v", status, got, want)
		}
	}
	if IsRefused(&APIError{Code: "code_interpreter_not_configured"}) {
		t.Error("an error inside a stream (status 0) counted as an HTTP refusal")
	}
	if IsRefused(errors.New("dial tcp: connection refused")) {
		t.Error("a network error counted as a refusal")
	}
}

package chat

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/foundry"
)

// TestDescribeFailure_InStreamLikeHTTP: a refusal reads the same whether
// the service answered it over HTTP or reported it inside the stream.
func TestDescribeFailure_InStreamLikeHTTP(t *testing.T) {
	t.Parallel()
	inStream := func(code, msg string) error {
		return fmt.Errorf("foundry: stream: %w", &foundry.APIError{Code: code, Message: msg})
	}
	tests := []struct {
		name     string
		http     error
		inStream error
		want     string
	}{
		{"rate limit", &foundry.APIError{StatusCode: 429, Code: "rate_limit_exceeded"}, inStream("rate_limit_exceeded", "Rate limit reached."), "Wait a minute"},
		{"server error", &foundry.APIError{StatusCode: 500, Code: "server_error"}, inStream("server_error", "The model produced invalid content."), "internal error"},
		{"container expired", &foundry.APIError{StatusCode: 400, Message: "Container is expired."}, inStream("container_expired", "Container is expired."), "session expired"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, s := describeFailure(tt.http, false), describeFailure(tt.inStream, false)
			if h != s || !strings.Contains(h, tt.want) {
				t.Errorf("over HTTP: %q\nin the stream: %q\nwant both the same, with %q", h, s, tt.want)
			}
		})
	}
	if got := describeFailure(inStream("server_error", "x"), true); !strings.Contains(got, "kept above") {
		t.Errorf("a partial answer's failure does not say it is kept: %q", got)
	}
	if got := describeFailure(errors.New("dial tcp: connection refused"), false); !strings.Contains(got, "could not be reached") {
		t.Errorf("unreachable: %q", got)
	}
}

package emulator

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// FaultHeader names the request header that injects faults into that one request, as a
// comma-separated list of fault names.
const FaultHeader = "X-Emulator-Fault"

// Fault names, usable in FaultHeader and in Faults.Always.
const (
	// Fault429 answers 429 rate_limit_exceeded with retry-after-ms and retry-after.
	Fault429 = "429"
	// Fault500 answers 500 server_error.
	Fault500 = "500"
	// FaultContent500 answers 500 to container file content downloads only, as the hosted
	// service was seen to do (foundry-api.md §6).
	FaultContent500 = "content-500"
	// FaultCutStream drops the connection in the middle of a response stream.
	FaultCutStream = "cut-stream"
	// FaultSlowTokens pauses Faults.TokenDelay between text deltas.
	FaultSlowTokens = "slow-tokens"
	// FaultBare429 answers 429 rate_limit_exceeded with no Retry-After of any kind: OpenAI's
	// spec says the header "may be omitted", and Azure users report it missing
	// (foundry-recorded.md 8a).
	FaultBare429 = "bare-429"
	// FaultEmptyStreamOutputs streams a background response's code calls with "outputs": []
	// (and without the local engine's live logs and figures), while GET /responses/{id} with
	// include[]=code_interpreter_call.outputs has them, as users of background mode report
	// (foundry-recorded.md 6b).
	FaultEmptyStreamOutputs = "empty-stream-outputs"
	// FaultExpiredExpectedContainer answers the next turn of a conversation that has a
	// container with 400 "Expected container_id: cntr_…", the wording an early expiry was once
	// answered with (pydantic/pydantic-ai#7461; foundry-recorded.md 1b); the container is
	// expired from then on.
	FaultExpiredExpectedContainer = "expired-expected-container"
)

var knownFaults = map[string]bool{Fault429: true, Fault500: true, FaultContent500: true,
	FaultCutStream: true, FaultSlowTokens: true, FaultBare429: true, FaultEmptyStreamOutputs: true,
	FaultExpiredExpectedContainer: true}

// Faults configures failures injected without a header, e.g. for a client that cannot add one.
type Faults struct {
	// Always lists faults as "name" (every request it applies to) or "name:N" (the next N
	// requests it applies to), e.g. "429:2" fails two requests and then lets them through.
	Always []string
	// RetryAfter is the wait advertised by injected 429s; 1 s by default.
	RetryAfter time.Duration
	// TokenDelay is the pause between text deltas under slow-tokens; 50 ms by default.
	TokenDelay time.Duration
}

// faultSet holds the configured faults and how many uses each has left (-1: unlimited).
type faultSet struct {
	mu         sync.Mutex
	left       map[string]int
	retryAfter time.Duration
	tokenDelay time.Duration
}

func newFaultSet(cfg Faults) (*faultSet, error) {
	f := &faultSet{left: map[string]int{}, retryAfter: cfg.RetryAfter, tokenDelay: cfg.TokenDelay}
	if f.retryAfter <= 0 {
		f.retryAfter = time.Second
	}
	if f.tokenDelay <= 0 {
		f.tokenDelay = 50 * time.Millisecond
	}
	for _, spec := range cfg.Always {
		name, count, err := ParseFault(spec)
		if err != nil {
			return nil, err
		}
		f.left[name] = count
	}
	return f, nil
}

// ParseFault splits "name" or "name:N" and checks the name; count is -1 for "always".
func ParseFault(spec string) (name string, count int, err error) {
	name, n, hasCount := strings.Cut(strings.TrimSpace(spec), ":")
	if !knownFaults[name] {
		return "", 0, fmt.Errorf("emulator: unknown fault %q", name)
	}
	if !hasCount {
		return name, -1, nil
	}
	count, err = strconv.Atoi(n)
	if err != nil || count < 1 {
		return "", 0, fmt.Errorf("emulator: fault %q: count must be a positive integer", spec)
	}
	return name, count, nil
}

// take reports whether fault name applies to r, using up one configured occurrence if the
// header did not ask for it.
func (f *faultSet) take(r *http.Request, name string) bool {
	for _, v := range r.Header.Values(FaultHeader) {
		for h := range strings.SplitSeq(v, ",") {
			if strings.TrimSpace(h) == name {
				return true
			}
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	switch n := f.left[name]; {
	case n < 0:
		return true
	case n > 0:
		f.left[name] = n - 1
		return true
	}
	return false
}

// requestFault returns the error of a fault that fails the whole request, if any.
func (f *faultSet) requestFault(r *http.Request) error {
	if f.take(r, Fault429) {
		secs := int((f.retryAfter + time.Second - 1) / time.Second)
		return &apiError{status: http.StatusTooManyRequests, code: "rate_limit_exceeded", typ: "requests",
			message: fmt.Sprintf("Rate limit is exceeded. Try again in %d seconds. (injected by %s)", secs, FaultHeader),
			header: http.Header{
				"Retry-After-Ms":                 {strconv.FormatInt(f.retryAfter.Milliseconds(), 10)},
				"Retry-After":                    {strconv.Itoa(secs)},
				"X-Ratelimit-Remaining-Requests": {"0"},
			}}
	}
	if f.take(r, FaultBare429) {
		return &apiError{status: http.StatusTooManyRequests, code: "rate_limit_exceeded", typ: "requests",
			message: "Rate limit is exceeded. (injected by " + FaultHeader + ", without Retry-After)"}
	}
	if f.take(r, Fault500) {
		return errInjected500()
	}
	return nil
}

// expectedContainer answers a turn in a conversation whose container is lastContainer with
// the 400 of FaultExpiredExpectedContainer, when that fault applies, and ends the container.
func (s *Server) expectedContainer(r *http.Request, t *turnSpec) error {
	if t.conversation == nil || t.lastContainer == "" || !s.faults.take(r, FaultExpiredExpectedContainer) {
		return nil
	}
	if c, ok := s.containers.get(t.lastContainer); ok {
		c.end("expired")
	}
	return &apiError{status: http.StatusBadRequest, message: "Expected container_id: " + t.lastContainer}
}

func errInjected500() *apiError {
	return &apiError{status: http.StatusInternalServerError, code: "server_error", typ: "server_error",
		message: "The server had an error while processing your request. (injected by " + FaultHeader + ")"}
}

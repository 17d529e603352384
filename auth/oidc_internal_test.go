package auth

import (
	"strings"
	"testing"
)

// TestProviderRefusal: the callback's error parameters come from whoever
// crafted the URL, so only a well-formed code is repeated to the person.
func TestProviderRefusal(t *testing.T) {
	for _, tc := range []struct{ code, want, notWant string }{
		{"access_denied", "consent was not given", ""},
		{"temporarily_unavailable", "(temporarily_unavailable)", ""},
		{"Call +1 555 0100 for help", "refused the sign-in. Try again", "555"},
	} {
		msg := providerRefusal(tc.code, "AADSTS: some description").(*SSOError).UserMessage()
		if !strings.Contains(msg, tc.want) || tc.notWant != "" && strings.Contains(msg, tc.notWant) || strings.Contains(msg, "AADSTS") {
			t.Errorf("error=%q: message %q", tc.code, msg)
		}
	}
}

func TestDecodeFlow(t *testing.T) {
	f := Flow{State: "s", Nonce: "n", Verifier: "v", Next: "/x", Started: 42}
	if got := DecodeFlow(f.Encode()); got != f {
		t.Fatalf("round trip: %+v, want %+v", got, f)
	}
	if got := DecodeFlow("not json"); got != (Flow{}) {
		t.Fatalf("garbage decoded to %+v", got)
	}
}

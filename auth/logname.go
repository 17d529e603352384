package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// LogName returns a short keyed hash of a typed username, for the log of a
// failed sign-in. People type their password into the username field, and
// a log must not keep it; the hash still shows which attempts were for the
// same name. The key is random per process, so the hash cannot be tested
// against a list of guesses.
func (a *Accounts) LogName(username string) string {
	m := hmac.New(sha256.New, a.logKey)
	m.Write([]byte(strings.ToLower(strings.TrimSpace(username))))
	return hex.EncodeToString(m.Sum(nil)[:6])
}

func randomKey() []byte {
	b := make([]byte, 32)
	rand.Read(b)
	return b
}

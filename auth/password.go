// Package auth holds the account rules of the workbench: password hashing
// and strength, username rules, the throttle on failed sign-ins, and the
// Accounts service that applies them over the store.
package auth

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"
)

// Limits on what a person may type; anything longer is refused, not cut.
const (
	MinPasswordLen = 10
	// MaxPasswordBytes is bcrypt's input limit: longer passwords would be
	// silently truncated by the algorithm, so they are refused instead.
	MaxPasswordBytes = 72
	MaxUsernameLen   = 64
)

// UserError is a refusal whose text is meant for the user: it says what
// went wrong and what to do, in a full sentence.
type UserError struct{ Msg string }

func (e *UserError) Error() string { return e.Msg }

// UserMessage returns the text for the user.
func (e *UserError) UserMessage() string { return e.Msg }

func userError(msg string) error { return &UserError{Msg: msg} }

// invalid is userError under the name that reads well at validation sites.
func invalid(msg string) error { return userError(msg) }

// commonPasswords are refused outright: they are the first ones any attacker
// tries, whatever their length.
var commonPasswords = map[string]bool{
	"password123": true, "password1234": true, "1234567890": true, "12345678910": true,
	"qwertyuiop": true, "administrator": true, "letmein123": true, "iloveyou123": true,
	"passwordpassword": true, "0123456789": true, "abcdefghij": true, "changeme123": true,
}

// ValidatePassword checks a new password for an account named username.
func ValidatePassword(username, password string) error {
	switch {
	case utf8.RuneCountInString(password) < MinPasswordLen:
		return invalid("Choose a password of at least 10 characters.")
	case len(password) > MaxPasswordBytes:
		return invalid("Choose a password of at most 72 bytes.")
	case commonPasswords[strings.ToLower(password)]:
		return invalid("That password is too common; choose another.")
	case strings.EqualFold(password, username):
		return invalid("The password must not be the username.")
	case len(uniqueRunes(password)) < 4:
		return invalid("That password is too repetitive; choose another.")
	}
	return nil
}

func uniqueRunes(s string) map[rune]bool {
	m := map[rune]bool{}
	for _, r := range s {
		m[r] = true
	}
	return m
}

// NormalizeUsername trims a username and checks it: 1 to 64 characters, no
// control characters and no spaces inside.
func NormalizeUsername(name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", invalid("Enter a username.")
	case utf8.RuneCountInString(name) > MaxUsernameLen:
		return "", invalid("Choose a username of at most 64 characters.")
	case !utf8.ValidString(name):
		return "", invalid("The username contains invalid characters.")
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || r == ' ' {
			return "", invalid("A username cannot contain spaces or control characters.")
		}
	}
	return name, nil
}

// hasher hashes and checks passwords with bcrypt at a given cost.
type hasher struct {
	cost int
	// dummy is a hash at the same cost, checked when the username is
	// unknown so that the answer takes as long as for a known one.
	dummy string
}

// newHasher returns a hasher for cost; it hashes once, for the dummy.
func newHasher(cost int) hasher {
	// Only a cost above bcrypt.MaxCost fails, and then every hash does.
	dummy, _ := bcrypt.GenerateFromPassword([]byte("not a real password"), cost)
	return hasher{cost: cost, dummy: string(dummy)}
}

func (h hasher) hash(password string) (string, error) {
	b, err := bcrypt.GenerateFromPassword([]byte(password), h.cost)
	return string(b), err
}

func (hasher) check(hash, password string) bool {
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) == nil
}

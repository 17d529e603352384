package handlers

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// deriveKeys turns one secret into the HMAC key and the AES-256 key of a
// securecookie pair, so an operator manages one string per generation.
func deriveKeys(secret []byte) (hashKey, blockKey []byte) {
	mac := func(label string) []byte {
		m := hmac.New(sha256.New, secret)
		m.Write([]byte(label))
		return m.Sum(nil)
	}
	return mac("workbench session hash key"), mac("workbench session block key")
}

// SessionSecrets returns the secrets for the session cookies: the
// comma-separated SESSION_KEYS value if set, otherwise a secret generated
// once into dataDir/session.key with mode 0600. There is no built-in default.
func SessionSecrets(sessionKeys, dataDir string) ([][]byte, error) {
	if strings.TrimSpace(sessionKeys) != "" {
		var out [][]byte
		for _, k := range strings.Split(sessionKeys, ",") {
			k = strings.TrimSpace(k)
			if len(k) < 32 {
				return nil, errors.New("SESSION_KEYS: each key must be at least 32 characters (try: openssl rand -hex 32)")
			}
			out = append(out, []byte(k))
		}
		return out, nil
	}
	path := filepath.Join(dataDir, "session.key")
	b, err := os.ReadFile(path)
	if err == nil {
		secret := strings.TrimSpace(string(b))
		if len(secret) < 32 {
			return nil, fmt.Errorf("%s holds fewer than 32 characters: delete it to generate a new one", path)
		}
		return [][]byte{[]byte(secret)}, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	raw := make([]byte, 32)
	rand.Read(raw)
	secret := hex.EncodeToString(raw)
	// O_EXCL: if two processes start at once, one writes and the other reads.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return SessionSecrets("", dataDir)
	}
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	defer f.Close()
	if _, err := f.WriteString(secret + "\n"); err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return [][]byte{[]byte(secret)}, nil
}

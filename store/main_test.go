package store_test

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	code := m.Run()
	closeSearchCorpus() // the latency benchmark's corpus, if it was built
	os.Exit(code)
}

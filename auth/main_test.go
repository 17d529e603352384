package auth_test

import (
	"os"
	"testing"

	"github.com/analyst-workbench/workbench/internal/pgtest"
)

// TestMain stops the PostgreSQL cluster the shared-mode tests start.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

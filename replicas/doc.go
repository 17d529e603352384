// Package replicas holds the acceptance test of issue 29: two web replicas
// sharing one PostgreSQL, one Azurite and one standalone foundry-emulator,
// all real processes on loopback, driven over HTTP as a browser behind a
// load balancer would drive them. It has no code of its own outside its
// tests; see replicas_test.go for what each subtest proves.
//
// The fixture (cluster_test.go) is started once for the package and shared
// by the subtests, because starting it is most of the suite's time:
// PostgreSQL and Azurite from internal/pgtest and files/azuritetest, and
// cmd/foundry-emulator and cmd/web built with `go build` into a temporary
// directory. Both replicas start at the same moment on an empty database,
// which is what the migration subtest (G) checks.
package replicas

// Package contract holds the contract tests of package foundry: one client
// scenario (ensure an agent, upload a file, stream a turn that runs a fenced
// python block, download the cited chart, delete everything) run against
// the in-process emulator and, when FOUNDRY_PROJECT_ENDPOINT and
// FOUNDRY_MODEL_DEPLOYMENT are set, against a real Foundry project.
//
// They live apart from foundry's unit tests so that those never depend on
// the emulator and its sandbox: go test ./foundry stays a sub-second check,
// go test ./foundry/... adds the contract.
package contract

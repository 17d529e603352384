// Package contract holds the contract tests of package foundry, run against
// the in-process emulator (as strict as the hosted service) and, when
// FOUNDRY_PROJECT_ENDPOINT and FOUNDRY_MODEL_DEPLOYMENT are set, against a
// real Foundry project:
//
//   - one analyst turn end to end: ensure an agent, upload a file, stream a
//     turn that runs a fenced python block, download the cited chart,
//     delete everything (scenario_test.go);
//   - what the chat layer relies on beyond one turn (sessions_test.go): a
//     turn after the conversation's container expired (against a real
//     project only with FOUNDRY_CONTRACT_EXPIRY, since it waits 31 minutes),
//     Stop mid-turn and then a new turn, a file attached late on turn 2,
//     and a stream cut and resumed with starting_after.
//
// They live apart from foundry's unit tests so that those never depend on
// the emulator and its sandbox: go test ./foundry stays a sub-second check,
// go test ./foundry/... adds the contract.
package contract

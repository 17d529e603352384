// Package analyst plays the model's part in the local engine: it reads the analyst's question,
// the conversation so far and the attached files, writes the Python to run in the sandbox, and
// answers from what the cells printed.
//
// Two planners share one contract (Next, called repeatedly within a turn until it returns a Step
// without code), mirroring emulator.Planner without importing it:
//
//   - Rules, the default, needs no model and no network. Its first cell of every turn loads each
//     data file in /mnt/data robustly and prints a JSON profile; the next cells are planned
//     deterministically from the question, the profile and the earlier questions of the
//     conversation; every analysis cell prints "@@wb {json}" markers, and the final reply quotes
//     numbers from those markers only.
//   - Model asks an OpenAI-compatible chat-completions endpoint to write the code through a
//     "python" tool, and falls back to Rules when the endpoint fails.
//
// A fenced ```python block in the question runs exactly as written under either planner.
package analyst

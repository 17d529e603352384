// Package analyst plays the model's part in the local engine: it reads the analyst's question,
// the conversation so far and the attached files, writes the Python to run in the sandbox, and
// answers from what the cells printed.
//
// Two planners share one contract, Next, called repeatedly within a turn until it returns a
// Step without code. The contract (Turn, Cell, Step, Planner) is declared here once; the
// emulator names the same types:
//
//   - Rules, the default, needs no model and no network. Its first cell of every turn loads each
//     data file in /mnt/data robustly (encodings, comment lines, odd delimiters, thousands
//     separators and decimal commas, dates in the usual formats, Excel sheets, JSON records) and
//     reports a JSON profile (wb_report("profile", …)); loading is idempotent, so a replaced
//     kernel costs nothing but time.
//     The next cell is planned deterministically from the question, the profile and the earlier
//     questions of the conversation (follow-ups such as "same for MSFT" are resolved by folding
//     Turn.History again on every call; the planner keeps no state: it survives restarts, and
//     "sorted the other way" or "top 10 instead" apply to the question before). When it has to
//     choose (a misspelt word, a column named by position), the reply opens with how it read
//     the question; when it cannot, it asks back with each reading as a link to SuggestionHref
//     that the app turns into the question in the composer. Every analysis cell reports its
//     results to the engine with wb_report("result", {…}) (out of band, never printed: nothing the
//     code prints is read), and the reply quotes numbers from those reports only. Charts are
//     saved as PNG files in /mnt/data under descriptive names and also shown.
//   - Model asks an OpenAI-compatible chat-completions endpoint to write the code through a
//     "python" tool (at most 6 cells a turn, stopping early on the same error twice), and falls
//     back to Rules, saying so in the reply, when the endpoint fails. Its streamed text reaches
//     the function set with WithTextStream.
//
// A fenced ```python block in the question runs exactly as written under either planner. Under
// Rules, a question that only asks to see a name ("show y") that earlier fenced code of the
// conversation assigned (a question of code, or a step the analyst edited) shows its value from
// the kernel.
//
// The emulator fills a Cell from the sandbox's result: the code, what it printed, its value,
// its error (name and value), and the names of the files the cell wrote.
package analyst

package cellext

// CodeNoCodeInterpreter is the error code of a response the local engine
// fails because its agent has no code_interpreter tool, so the code written
// for it may not run; also of an agent version the engine refuses because
// its model deployment cannot run that tool. The code is the engine's own:
// what the hosted service answers in either case is UNCONFIRMED. The app
// tells the analyst the agent is misconfigured.
const CodeNoCodeInterpreter = "code_interpreter_not_configured"

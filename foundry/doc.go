// Package foundry is the client of the Microsoft Foundry Agent Service for
// the analyst workbench: prompt agents with the Code Interpreter tool,
// files, conversations, streamed responses and container files.
//
// One project endpoint (https://<resource>.services.ai.azure.com/api/projects/<project>,
// or the local engine's http://127.0.0.1:<port>/api/projects/<name>) serves
// two families of routes, and the Client uses the natural client for each:
//
//   - /agents…?api-version=v1 (Foundry-native) through an azcore pipeline
//     with the bearer-token and retry policies;
//   - /openai/v1/… (OpenAI-compatible: files, conversations, responses,
//     containers) through openai-go, with a middleware that adds the token
//     and the Foundry request fields (agent_reference, structured_inputs).
//
// Both retry 408/429/5xx with backoff and jitter and honour retry-after-ms
// and retry-after, except for the creation of a response, which is not
// idempotent: StreamResponse sends it again only after a 429, 5xx or
// conversation_locked refusal, and only once it has checked that no
// response was made. Every error from the service is an *APIError; the
// same error inside a stream is one too, and IsRateLimited, IsServerError
// and IsContainerExpired classify both alike.
//
// Turns run as background responses: they can be cancelled, and their
// streams resume after a cut (GET /responses/{id}?stream=true&starting_after=N),
// or settle from the stored response when the events are gone.
//
// Streams turn the Responses SSE events into app-level Events (text and
// code deltas, code done, logs, images, container file citations, usage,
// completion or failure); see EventType.
//
// The wire protocol and its uncertain points are described in
// shared/reference/foundry-api.md; code that accepts more than one shape
// because the reference marks a point UNCONFIRMED says so where it does.
package foundry

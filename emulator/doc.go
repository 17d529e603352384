// Package emulator serves the REST surface of the Microsoft Foundry Agent Service (prompt agents
// with the Code Interpreter tool) on this machine: agents and their versions under
// /api/projects/{project}/agents, and the OpenAI-compatible files, conversations, responses and
// containers under /api/projects/{project}/openai/v1. Code runs in local kernels (the sandbox
// package) and a Planner decides which code a turn runs, so the official SDKs and the workbench's
// own foundry client can work fully offline against the same JSON, SSE and error shapes as the
// hosted service.
package emulator

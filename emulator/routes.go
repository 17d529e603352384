package emulator

import (
	"net/http"
	"strings"
)

// routes is the whole route table. Agents live on the Foundry-native surface and need an
// api-version; the OpenAI-compatible resources are served twice: under /openai/v1 (GA, no
// api-version) and under /openai with ?api-version= (the 2025-11-15-preview surface).
func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	const project = "/api/projects/{project}"
	native := func(pattern string, h handlerFunc) {
		method, path, _ := strings.Cut(pattern, " ")
		mux.Handle(method+" "+project+path, s.versioned(h))
	}
	openai := func(pattern string, h handlerFunc) {
		method, path, _ := strings.Cut(pattern, " ")
		mux.Handle(method+" "+project+"/openai/v1"+path, s.wrap(h))
		mux.Handle(method+" "+project+"/openai"+path, s.versioned(h))
	}

	// Agents and their versions.
	native("POST /agents", s.createAgent)
	native("GET /agents", s.listAgents)
	native("GET /agents/{agent}", s.showAgent)
	native("POST /agents/{agent}", s.updateAgent)
	native("DELETE /agents/{agent}", s.deleteAgent)
	native("POST /agents/{agent}/versions", s.createAgentVersion)
	native("GET /agents/{agent}/versions", s.listAgentVersions)
	native("GET /agents/{agent}/versions/{version}", s.showAgentVersion)
	native("DELETE /agents/{agent}/versions/{version}", s.deleteAgentVersion)

	// Files.
	openai("POST /files", s.uploadFile)
	openai("GET /files", s.listFiles)
	openai("GET /files/{file}", s.showFile)
	openai("GET /files/{file}/content", s.downloadFile)
	openai("DELETE /files/{file}", s.deleteFile)

	// Conversations and their items.
	openai("POST /conversations", s.createConversation)
	openai("GET /conversations", s.listConversations)
	openai("GET /conversations/{conversation}", s.showConversation)
	openai("POST /conversations/{conversation}", s.updateConversation)
	openai("DELETE /conversations/{conversation}", s.deleteConversation)
	openai("POST /conversations/{conversation}/items", s.addItems)
	openai("GET /conversations/{conversation}/items", s.listItems)
	openai("GET /conversations/{conversation}/items/{item}", s.showItem)
	openai("DELETE /conversations/{conversation}/items/{item}", s.deleteItem)

	// Responses: one turn of the agent each.
	openai("POST /responses", s.createResponse)
	openai("GET /responses", s.listResponses)
	openai("GET /responses/{response}", s.showResponse)
	openai("DELETE /responses/{response}", s.deleteResponse)
	openai("POST /responses/{response}/cancel", s.cancelResponse)
	openai("GET /responses/{response}/input_items", s.listInputItems)

	// Containers (Code Interpreter sessions) and the files in them.
	openai("POST /containers", s.createContainer)
	openai("GET /containers", s.listContainers)
	openai("GET /containers/{container}", s.showContainer)
	openai("DELETE /containers/{container}", s.deleteContainer)
	openai("POST /containers/{container}/files", s.addContainerFile)
	openai("GET /containers/{container}/files", s.listContainerFiles)
	openai("GET /containers/{container}/files/{file}", s.showContainerFile)
	openai("DELETE /containers/{container}/files/{file}", s.deleteContainerFile)
	openai("GET /containers/{container}/files/{file}/content", s.downloadContainerFile)

	// Everything else, including a known path with the wrong method.
	mux.Handle("/", s.wrap(s.notFound))
	return mux
}

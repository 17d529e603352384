package foundry_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/analyst-workbench/workbench/foundry"
)

// Example shows one turn as the chat layer drives it: ensure the agent,
// upload the attached file, stream the answer, download cited files.
func Example() {
	ctx := context.Background()
	cred, err := foundry.DefaultCredential() // foundry.StaticToken(tok) for the local engine
	if err != nil {
		log.Fatal(err)
	}
	c, err := foundry.New(foundry.Config{Endpoint: os.Getenv("FOUNDRY_PROJECT_ENDPOINT"), Credential: cred})
	if err != nil {
		log.Fatal(err)
	}
	agent, err := c.EnsureAgent(ctx, foundry.AgentSpec{Name: "analyst", Model: "gpt-4.1",
		Instructions: "You are a data analyst.", FileSlots: 10})
	if err != nil {
		log.Fatal(err)
	}
	f, err := os.Open("sales.csv")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	file, err := c.UploadFile(ctx, "sales.csv", f)
	if err != nil {
		log.Fatal(err)
	}
	conv, err := c.CreateConversation(ctx, map[string]string{"app": "workbench"})
	if err != nil {
		log.Fatal(err)
	}
	inputs, _ := foundry.SlotInputs([]string{file.ID}, 10)
	s, err := c.StreamResponse(ctx, foundry.ResponseRequest{
		Agent:            foundry.AgentRef{Name: agent.Name, Version: agent.Version},
		ConversationID:   conv.ID,
		Input:            "Plot monthly sales",
		StructuredInputs: inputs,
		Background:       true, // cancellable, and resumed after a cut
	})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	for s.Next() {
		switch e := s.Event(); e.Type {
		case foundry.EventTextDelta:
			fmt.Print(e.Text)
		case foundry.EventCodeDone:
			fmt.Printf("\n[code in %s]\n%s\n", e.ContainerID, e.Text)
		case foundry.EventFileCitation:
			rc, err := c.ContainerFileContent(ctx, e.Citation.ContainerID, e.Citation.FileID)
			if err == nil {
				// store the bytes at once: containers expire
				rc.Close()
			}
		}
	}
	if err := s.Err(); err != nil {
		log.Print(err) // what streamed before the failure was still delivered
	}
}

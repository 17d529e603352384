package chat

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"time"

	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/store"
)

// SessionRenewedNotice is what the user is told when a turn moved the
// conversation to a new session.
const SessionRenewedNotice = "The previous session had ended; a new one was started with your files."

// turn prepares the Foundry side and streams the response. The agent is
// set up first when it is missing (agentForTurn). A conversation
// whose session has ended is moved to a new Foundry conversation first: on
// the hosted service an expired container is never replaced, and every
// later turn of that conversation would be refused. If the service still
// says the container expired (before or inside the stream), the turn moves
// and starts over once.
func (r *runner) turn(ctx context.Context) error {
	if err := r.s.agentForTurn(ctx); err != nil {
		return err
	}
	conv, err := r.s.db.Conversation(ctx, r.userID, r.convID)
	if err != nil {
		return err
	}
	if err := r.uploadFiles(ctx); err != nil {
		return err
	}
	switch {
	case conv.FoundryConversationID == "":
		fc, err := r.s.client.CreateConversation(ctx, r.s.conversationMetadata(conv.ID, r.userID))
		if err != nil {
			return fmt.Errorf("create conversation: %w", err)
		}
		conv.FoundryConversationID = fc.ID
		if err := r.s.db.SetFoundryConversation(ctx, conv.ID, fc.ID); err != nil {
			return err
		}
	case Session(conv, time.Now()).State == StatusExpired:
		if err := r.renew(ctx, conv); err != nil {
			return err
		}
	}
	r.lastContainer = conv.ContainerID
	err = r.attempt(ctx, conv)
	if err == nil || r.renewed || ctx.Err() != nil || !foundry.IsContainerExpired(err) {
		return err
	}
	r.s.log.Info("session expired under the turn; starting over in a new one", "run", r.run.ID, "err", err)
	r.emit(ctx, Event{Type: EventRestart})
	if err := r.renew(ctx, conv); err != nil {
		return err
	}
	return r.attempt(ctx, conv)
}

// attempt asks for one response in the conversation and streams it.
func (r *runner) attempt(ctx context.Context, conv *store.Conversation) error {
	ids := make([]string, len(r.files))
	attached := make([]foundry.Attached, len(r.files))
	for i, f := range r.files {
		ids[i] = f.FoundryFileID
		attached[i] = foundry.Attached{FileID: f.FoundryFileID, Filename: f.Name}
	}
	inputs, err := foundry.SlotInputs(ids, r.s.agent.FileSlots)
	if err != nil {
		return err
	}
	if r.s.agent.FileSlots > 0 {
		// The instructions name the files by the paths the engine mounts them at.
		inputs[foundry.FilesInput] = foundry.FileList(attached)
	}
	r.attempts++
	req := foundry.ResponseRequest{Agent: r.s.agentRef(), ConversationID: conv.FoundryConversationID,
		Input: r.question, StructuredInputs: inputs, Background: true,
		Key: r.run.ID + "-" + strconv.Itoa(r.attempts), Metadata: map[string]string{"run": r.run.ID}}
	return r.stream(ctx, req)
}

// renew moves the conversation to a new Foundry conversation that starts
// with a summary of the earlier turns, and attaches the conversation's
// files again. The old Foundry conversation goes through the purge outbox.
func (r *runner) renew(ctx context.Context, conv *store.Conversation) error {
	r.renewed = true
	if err := r.withEarlierFiles(ctx); err != nil {
		return err
	}
	seed, err := r.s.seed(ctx, conv.ID, r.run.ID, r.files)
	if err != nil {
		return err
	}
	fc, err := r.s.client.CreateConversation(ctx, r.s.conversationMetadata(conv.ID, r.userID), seed...)
	if err != nil {
		return fmt.Errorf("create conversation for a new session: %w", err)
	}
	if err := r.s.db.RenewFoundryConversation(ctx, conv.ID, fc.ID); err != nil {
		return err
	}
	conv.FoundryConversationID, conv.ContainerID = fc.ID, ""
	r.lastContainer, r.sessionChecked = "", true
	r.end.NewSession = true
	r.notice(ctx, SessionRenewedNotice)
	return nil
}

// withEarlierFiles adds to the turn's files the conversation's others that
// earlier turns sent to Foundry, as far as the agent's slots allow, so that
// the new session has the files the old one had.
func (r *runner) withEarlierFiles(ctx context.Context) error {
	all, err := r.s.db.Files(ctx, r.userID, r.convID)
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, f := range r.files {
		have[f.ID] = true
	}
	for _, f := range all {
		if len(r.files) >= r.s.agent.FileSlots {
			break
		}
		if !have[f.ID] && f.FoundryFileID != "" {
			r.files = append(r.files, f)
		}
	}
	return nil
}

// conversationMetadata tags a Foundry conversation as the app's, and names
// the local conversation and the user it belongs to.
func (s *Service) conversationMetadata(convID, userID string) map[string]string {
	md := maps.Clone(s.tag)
	if md == nil {
		md = map[string]string{}
	}
	md["conversation"] = convID
	md["user"] = userID // the local engine shares its sandboxes out fairly between users
	return md
}

// uploadFiles uploads the attached files Foundry does not have yet.
func (r *runner) uploadFiles(ctx context.Context) error {
	for _, f := range r.files {
		if f.FoundryFileID != "" {
			continue
		}
		r.emit(ctx, Event{Type: EventProgress, Text: "Uploading " + f.Name + "…"})
		id, err := r.upload(ctx, f)
		if err != nil {
			return fmt.Errorf("upload %s: %w", f.Name, err)
		}
		f.FoundryFileID = id
	}
	return nil
}

func (r *runner) upload(ctx context.Context, f *store.File) (string, error) {
	body, err := r.s.store.Open(ctx, f.SHA256)
	if err != nil {
		return "", err
	}
	defer body.Close()
	up, err := r.s.client.UploadFile(ctx, f.Name, body)
	if err != nil {
		return "", err
	}
	return up.ID, r.s.db.SetFoundryFileID(ctx, f.ID, up.ID)
}

package emulator

import "net/http"

// The hosted service is stricter than this emulator used to be in a few
// ways; by default the emulator is strict as well, so that what passes here
// passes there (Config.Lenient restores the older behaviour). Each rule
// names its source; emulator/README.md lists them.

// lastContainer returns the container of the conversation's last code
// interpreter call: the one this process recorded, else the one its stored
// items name (which survives a restart, when containers do not).
func (s *Server) lastContainer(conversationID string, items []item) string {
	s.containers.mu.Lock()
	id := s.containers.byConversation[conversationID]
	s.containers.mu.Unlock()
	if id != "" {
		return id
	}
	for i := len(items) - 1; i >= 0; i-- {
		if items[i]["type"] == "code_interpreter_call" {
			if cid, _ := items[i]["container_id"].(string); cid != "" {
				return cid
			}
		}
	}
	return ""
}

// expiredConversation answers a turn in a conversation whose container has
// expired. On the hosted service the auto container of a conversation is
// not replaced: every later turn answers 400 "Container is expired."
// (foundry-api.md §8, [S16] OpenAI community thread; Foundry's wording is
// UNCONFIRMED). The client must start a new conversation.
func (s *Server) expiredConversation(t *turnSpec) error {
	if s.cfg.Lenient || t.conversation == nil || t.lastContainer == "" {
		return nil
	}
	if c, ok := s.containers.get(t.lastContainer); ok && c.alive() {
		return nil
	}
	return errContainerExpired
}

// lockedConversation refuses a second response in a conversation while one
// runs, as OpenAI does with 400 conversation_locked ("Another process is
// currently operating on this conversation. Please retry in a few
// seconds."), seen in paulgmiller/careme#379; Foundry's answer is UNCONFIRMED.
func (s *Server) lockedConversation(t *turnSpec) error {
	if id := s.lockedID(t); id != "" && s.runs.busy(id) {
		return errConversationLocked
	}
	return nil
}

// lockedID is the conversation whose running response would lock out t, or
// "" when none can: the lenient emulator lets responses overlap.
func (s *Server) lockedID(t *turnSpec) string {
	if s.cfg.Lenient || t.conversation == nil {
		return ""
	}
	return t.conversation.ID
}

var errConversationLocked = &apiError{status: http.StatusBadRequest, code: "conversation_locked", param: "conversation",
	message: "Another process is currently operating on this conversation. Please retry in a few seconds."}

// checkCancellable refuses to cancel a response created without background:
// "Only responses created with the background parameter set to true can be
// cancelled" (OpenAI API reference of POST /responses/{id}/cancel, as
// quoted in openai-go's ResponseService.Cancel). The error text is ours.
func (s *Server) checkCancellable(resp *response) error {
	if s.cfg.Lenient || resp.Background {
		return nil
	}
	return errBadRequest("response_id", "Cannot cancel response '%s': only responses created with background=true can be cancelled.", resp.ID)
}

// checkReplayable refuses to stream again a response that was not created with both
// background and stream: "You can only start a new stream from a background response if you
// created it with stream=true." (OpenAI's background mode guide, Limits;
// foundry-recorded.md 3c). The texts of the 400s are ours; Foundry's are UNCONFIRMED.
func (s *Server) checkReplayable(rn *run) error {
	switch resp := rn.initial; {
	case s.cfg.Lenient:
		return nil
	case !resp.Background:
		return errBadRequest("stream", "Response '%s' was not created with background=true; its stream cannot be resumed.", resp.ID)
	case !rn.streamed:
		return errBadRequest("stream", "Response '%s' was not created with stream=true; it cannot be streamed now.", resp.ID)
	}
	return nil
}

// cancelledEnding is how a cancelled turn ends. The stream protocol has no
// cancelled event (openai-go knows none), and a cancelled response has
// status "cancelled" (OpenAI's background mode guide): the stream simply
// ends, and a GET of the response tells the rest. The lenient emulator
// ends it with response.failed carrying status "cancelled", as it used to.
func (s *Server) cancelledEnding() (err *responseError, event string) {
	if s.cfg.Lenient {
		return &responseError{Code: "cancelled", Message: "The response was cancelled."}, "response.failed"
	}
	return nil, ""
}

// busy reports whether a response of the conversation is still running.
func (rs *runSet) busy(conversationID string) bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.busyLocked(conversationID)
}

// busyLocked is busy for a caller that holds rs.mu.
func (rs *runSet) busyLocked(conversationID string) bool {
	for _, r := range rs.runs {
		c := r.initial.Conversation
		if c != nil && c.ID == conversationID && !isClosed(r.ended) {
			return true
		}
	}
	return false
}

package handlers

import (
	"context"
	"net/http"

	"github.com/analyst-workbench/workbench/purge"
	"github.com/analyst-workbench/workbench/views"
	"github.com/labstack/echo/v4"
)

// agentView is the Foundry agent as /admin shows it: chat's state of its
// set-up. Should the state's record not be read, the state kept in memory
// shows, and the reason is logged.
func (h *Handler) agentView(ctx context.Context) views.AdminAgent {
	st, err := h.chat.Agent(ctx)
	if err != nil {
		h.log.Warn("read the agent's state", "err", err)
	}
	if st.Name == "" {
		return views.AdminAgent{} // no agent configured
	}
	v := views.AdminAgent{State: agentState(st.Status), Name: st.Name, Model: st.Model, Version: st.Version,
		At: st.At, Retry: st.Retry}
	if st.Failure != nil {
		v.Failure = st.Failure.String()
	}
	return v
}

// showAgentDeletion is the confirm step of deleting the Foundry agent: it
// names the agent and its versions, and says that the next question sets
// the agent up again.
func (h *Handler) showAgentDeletion(c echo.Context) error {
	name, err := h.agentName(c)
	if err != nil {
		return err
	}
	d, err := h.purge.PlanAgentDeletion(c.Request().Context(), name)
	if err != nil {
		return err
	}
	p, err := h.userPage(c, "Delete the Foundry agent", "")
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.AgentDeletionPage(p, agentDeletionView(d)))
}

// deleteAgent deletes the Foundry agent with all its versions through the
// purge outbox, and shows the purge's progress.
func (h *Handler) deleteAgent(c echo.Context) error {
	name, err := h.agentName(c)
	if err != nil {
		return err
	}
	res, err := h.purge.DeleteAgent(c.Request().Context(), currentUser(c).ID, name)
	if err != nil {
		return err
	}
	h.log.Info("agent deletion queued", "agent", name, "by", currentUser(c).Username, "purge", res.PurgeID)
	return redirect(c, "/admin/purges/"+res.PurgeID)
}

// agentName is the configured agent's name: the only one the admin page
// deletes, whatever a form says.
func (h *Handler) agentName(c echo.Context) (string, error) {
	st, err := h.chat.Agent(c.Request().Context())
	if err != nil {
		return "", err
	}
	if st.Name == "" {
		return "", echo.NewHTTPError(http.StatusNotFound, "No Foundry agent is configured.")
	}
	return st.Name, nil
}

func agentDeletionView(d *purge.AgentDeletion) views.AgentDeletion {
	v := views.AgentDeletion{Name: d.Name, Listing: agentListing(d.Listing)}
	if d.ListError != nil {
		v.ListError = d.ListError.Error()
	}
	for _, ver := range d.Versions {
		v.Versions = append(v.Versions, views.AgentVersionRow{Version: ver.Version, Model: ver.Model(),
			CreatedAt: ver.CreatedAt, InUse: ver.Version == d.InUse})
	}
	return v
}

// agentListing is how the confirm step shows what Foundry said of the
// agent's versions.
func agentListing(l purge.AgentListing) views.AgentListing {
	switch l {
	case purge.AgentListed:
		return views.AgentListed
	case purge.AgentMissing:
		return views.AgentMissing
	default: // purge.AgentUnlisted
		return views.AgentUnlisted
	}
}

package emulator

import (
	"net/http"
	"slices"
	"strings"
)

// errUnknownDeployment refuses an agent version whose model is no deployment the emulator
// serves. The hosted service's status, code and wording are UNCONFIRMED: a 400 naming the model
// is assumed (Azure OpenAI answers a missing deployment with 404 DeploymentNotFound on its own
// routes, but agent creation validates the definition it is given).
func errUnknownDeployment(model string, served []string) *apiError {
	return &apiError{status: http.StatusBadRequest, code: "invalid_model", param: "definition.model",
		message: "The model deployment '" + model + "' was not found in this project. Deployments: " +
			strings.Join(served, ", ") + "."}
}

// errToolUnsupported refuses an agent version that gives the code_interpreter tool to a
// deployment that cannot run it. It reuses the code of a turn refused for want of the tool
// (noCodeInterpreterCode); that the hosted service refuses at creation, and how, is UNCONFIRMED.
func errToolUnsupported(model string) *apiError {
	return &apiError{status: http.StatusBadRequest, code: noCodeInterpreterCode, param: "definition.tools",
		message: "The model deployment '" + model + "' does not support the code_interpreter tool in this region."}
}

// checkDeployment refuses a definition whose model the emulator does not serve (Deployments),
// or whose code_interpreter tool its model cannot run (WithoutCodeInterpreter). Model names
// compare without regard to case, as deployment names do.
func (s *Server) checkDeployment(def definition) error {
	known := func(list []string) bool {
		return slices.ContainsFunc(list, func(d string) bool { return strings.EqualFold(d, def.Model) })
	}
	if len(s.cfg.Deployments) > 0 && !known(s.cfg.Deployments) {
		return errUnknownDeployment(def.Model, s.cfg.Deployments)
	}
	if _, hasCI := codeInterpreter(def.Tools); hasCI && known(s.cfg.WithoutCodeInterpreter) {
		return errToolUnsupported(def.Model)
	}
	return nil
}

package handlers

import (
	"strings"

	"github.com/analyst-workbench/workbench/views"
)

// packagesCard is the admin page's list of the Python packages code can
// import, as chat knows them.
func (h *Handler) packagesCard() views.PackagesCard {
	pk := h.chat.Packages()
	c := views.PackagesCard{Listed: pk.Listed, Local: h.engine.Local, Python: pk.Python}
	for _, d := range pk.Distributions {
		c.Packages = append(c.Packages, views.PackageRow{Name: d.Name, Version: d.Version, Modules: strings.Join(d.Modules, ", ")})
	}
	return c
}

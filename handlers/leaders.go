package handlers

import (
	"github.com/analyst-workbench/workbench/store"
	"github.com/prometheus/client_golang/prometheus"
)

// registerLeaders exports workbench_leader{task}: 1 for each background
// task this server leads now among those sharing the database (see
// store.Lead), 0 for the others.
func (m *metrics) registerLeaders(leading func(task string) bool) {
	for _, task := range store.LeadTasks {
		m.registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "workbench_leader",
			Help:        "1 when this server runs the task for every server sharing the database.",
			ConstLabels: prometheus.Labels{"task": task}}, func() float64 {
			if leading(task) {
				return 1
			}
			return 0
		}))
	}
}

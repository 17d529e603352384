package handlers

import (
	"github.com/analyst-workbench/workbench/views"
	"github.com/prometheus/client_golang/prometheus"
)

// SandboxStats are the local engine's sandbox figures, as cmd/web reads
// them from the pool (handlers do not import the sandbox).
type SandboxStats struct {
	Budget, Used, KernelSize int64 // bytes
	Template                 int64 // bytes of the template kernels fork from, in Used; 0 when none
	Capacity                 int   // kernels of KernelSize the budget holds
	Live, Busy, Idle         int   // sessions with a kernel, running code, or not
	Evicted                  int   // sessions set aside, their state on disk
	Queued                   int   // questions waiting for a free sandbox now
	Ready                    int   // warm workers
	WarmGoal                 int   // warm workers the pool keeps now
	Evictions, Restores      int64 // since start
	QueuedTotal, Refused     int64 // since start: waited for a sandbox; refused, the line full
}

// sandboxCard is the admin page's view of the sandbox, nil on Foundry.
func (h *Handler) sandboxCard() *views.SandboxCard {
	if h.sandbox == nil {
		return nil
	}
	st := h.sandbox()
	pct := 0
	if st.Budget > 0 {
		pct = int(min(st.Used*100/st.Budget, 100))
	}
	return &views.SandboxCard{Budget: views.ByteSize(st.Budget), Used: views.ByteSize(st.Used), UsedPct: pct,
		KernelSize: views.ByteSize(st.KernelSize), Capacity: st.Capacity, Template: templateSize(st.Template),
		Live: st.Live, Busy: st.Busy, Idle: st.Idle, Evicted: st.Evicted, Queued: st.Queued, Ready: st.Ready,
		WarmGoal: st.WarmGoal, Evictions: st.Evictions, Restores: st.Restores, QueuedTotal: st.QueuedTotal, Refused: st.Refused}
}

// templateSize is the template's size for the page, "" when kernels do not fork.
func templateSize(n int64) string {
	if n <= 0 {
		return ""
	}
	return views.ByteSize(n)
}

// registerSandbox exports the sandbox figures at /metrics, read once per
// scrape (reading them locks the pool and walks its sessions).
func (m *metrics) registerSandbox(read func() SandboxStats) {
	gauge := func(name, help string, v func(SandboxStats) float64) sandboxMetric {
		return sandboxMetric{prometheus.NewDesc("workbench_sandbox_"+name, help, nil, nil), prometheus.GaugeValue, v}
	}
	counter := func(name, help string, v func(SandboxStats) float64) sandboxMetric {
		return sandboxMetric{prometheus.NewDesc("workbench_sandbox_"+name, help, nil, nil), prometheus.CounterValue, v}
	}
	m.registry.MustRegister(sandboxCollector{read: read, metrics: []sandboxMetric{
		gauge("memory_budget_bytes", "Memory all kernels may use together.", func(s SandboxStats) float64 { return float64(s.Budget) }),
		gauge("memory_used_bytes", "Memory the live and warm kernels use, as last measured.", func(s SandboxStats) float64 { return float64(s.Used) }),
		gauge("kernel_bytes", "Memory of one more kernel: what kernels in use measure, or a warm one.", func(s SandboxStats) float64 { return float64(s.KernelSize) }),
		gauge("template_bytes", "Memory of the template kernels fork from, counted once in memory_used_bytes.", func(s SandboxStats) float64 { return float64(s.Template) }),
		gauge("live", "Sessions with a kernel.", func(s SandboxStats) float64 { return float64(s.Live) }),
		gauge("busy", "Sessions running code now.", func(s SandboxStats) float64 { return float64(s.Busy) }),
		gauge("idle", "Live sessions not running code: they may be evicted.", func(s SandboxStats) float64 { return float64(s.Idle) }),
		gauge("evicted", "Sessions set aside, their state on disk until their next question.", func(s SandboxStats) float64 { return float64(s.Evicted) }),
		gauge("queued", "Questions waiting for a free sandbox now.", func(s SandboxStats) float64 { return float64(s.Queued) }),
		gauge("warm", "Warm kernels waiting for a new conversation.", func(s SandboxStats) float64 { return float64(s.Ready) }),
		gauge("warm_goal", "Warm kernels the pool keeps now: its floor, or the last hour's busiest minute.", func(s SandboxStats) float64 { return float64(s.WarmGoal) }),
		counter("evictions_total", "Sessions evicted to make room.", func(s SandboxStats) float64 { return float64(s.Evictions) }),
		counter("restores_total", "Evicted sessions restored.", func(s SandboxStats) float64 { return float64(s.Restores) }),
		counter("queued_total", "Questions that waited for a free sandbox.", func(s SandboxStats) float64 { return float64(s.QueuedTotal) }),
		counter("refused_total", "Questions refused because the line for a sandbox was full.", func(s SandboxStats) float64 { return float64(s.Refused) }),
	}})
}

// sandboxMetric is one figure of SandboxStats as a metric.
type sandboxMetric struct {
	desc  *prometheus.Desc
	kind  prometheus.ValueType
	value func(SandboxStats) float64
}

// sandboxCollector reads the figures once and reports every metric from
// that one reading, so a scrape is consistent (live = busy + idle).
type sandboxCollector struct {
	read    func() SandboxStats
	metrics []sandboxMetric
}

// Describe sends every metric's description.
func (c sandboxCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, m := range c.metrics {
		ch <- m.desc
	}
}

// Collect reads the figures once and sends every metric.
func (c sandboxCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.read()
	for _, m := range c.metrics {
		ch <- prometheus.MustNewConstMetric(m.desc, m.kind, m.value(st))
	}
}

package handlers

import "github.com/prometheus/client_golang/prometheus"

// DiskStore is what /metrics reads of the blob store's disk: its free
// space, the floor kept under it (DATA_MIN_FREE_MB) and the writes refused
// to keep that floor.
type DiskStore interface {
	FreeBytes() (int64, error)
	MinFree() int64
	LowDiskRefusals() int64
}

// registerDisk exports the disk's figures, read at each scrape.
func (m *metrics) registerDisk(d DiskStore) {
	m.registry.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "workbench_data_free_bytes",
			Help: "Free space on the disk of the stored files."}, func() float64 {
			free, _ := d.FreeBytes()
			return float64(free)
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "workbench_data_min_free_bytes",
			Help: "Free space below which nothing more is stored."}, func() float64 { return float64(d.MinFree()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "workbench_storage_refused_low_disk_total",
			Help: "Files not stored because the disk was at its free-space floor."}, func() float64 {
			return float64(d.LowDiskRefusals())
		}),
	)
}

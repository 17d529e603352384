package thumbs

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"slices"
	"testing"
	"time"

	"golang.org/x/image/draw"
)

// benchSide is the thumbnail size the gallery grid asks for.
const benchSide = 320

func charts(b *testing.B, n int) [][]byte {
	b.Helper()
	out := make([][]byte, n)
	for i := range out {
		out[i] = encodePNG(b, chart(uint64(i), 1000, 600))
	}
	return out
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkThumbnail200 makes thumbnails of 200 chart PNGs in an empty cache
// and then asks for each again. It reports the median time of one generation
// (open, decode, scale, encode, fsync, rename) and of one cached request.
func BenchmarkThumbnail200(b *testing.B) {
	srcs := charts(b, 200)
	shas := make([]string, len(srcs))
	for i := range shas {
		shas[i] = fmt.Sprintf("%064x", i+1)
	}
	var gen, hit []time.Duration
	for b.Loop() {
		c, err := New(b.TempDir(), benchSide)
		if err != nil {
			b.Fatal(err)
		}
		for _, pass := range []*[]time.Duration{&gen, &hit} {
			for i, src := range srcs {
				start := time.Now()
				if _, err := c.Thumbnail(shas[i], opener(src)); err != nil {
					b.Fatal(err)
				}
				*pass = append(*pass, time.Since(start))
			}
		}
	}
	b.ReportMetric(float64(median(gen).Microseconds())/1000, "ms/generate")
	b.ReportMetric(float64(median(hit).Nanoseconds())/1000, "µs/cached")
}

func opener(src []byte) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(src)), nil }
}

// BenchmarkScalers compares the x/image/draw kernels on one decoded chart;
// the scaled images are what the choice in New was judged on by eye.
func BenchmarkScalers(b *testing.B) {
	src, err := png.Decode(bytes.NewReader(charts(b, 1)[0]))
	if err != nil {
		b.Fatal(err)
	}
	scalers := []struct {
		name string
		s    draw.Scaler
	}{
		{"NearestNeighbor", draw.NearestNeighbor},
		{"ApproxBiLinear", draw.ApproxBiLinear},
		{"BiLinear", draw.BiLinear},
		{"CatmullRom", draw.CatmullRom},
	}
	for _, sc := range scalers {
		b.Run(sc.name, func(b *testing.B) {
			c := &Cache{maxSide: benchSide, scaler: sc.s}
			for b.Loop() {
				c.scale(src)
			}
		})
	}
}

// BenchmarkCompression compares PNG levels, and JPEG for reference, on a
// chart thumbnail and reports the file size each gives.
func BenchmarkCompression(b *testing.B) {
	src, err := png.Decode(bytes.NewReader(charts(b, 1)[0]))
	if err != nil {
		b.Fatal(err)
	}
	thumb := (&Cache{maxSide: benchSide, scaler: draw.CatmullRom}).scale(src)
	encoders := []struct {
		name   string
		encode func(io.Writer, image.Image) error
	}{
		{"png-default", (&png.Encoder{}).Encode},
		{"png-best-speed", (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode},
		{"png-best-compression", (&png.Encoder{CompressionLevel: png.BestCompression}).Encode},
		{"jpeg-q85", func(w io.Writer, m image.Image) error { return jpeg.Encode(w, m, &jpeg.Options{Quality: 85}) }},
	}
	for _, e := range encoders {
		b.Run(e.name, func(b *testing.B) {
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				if err := e.encode(&buf, thumb); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "bytes")
		})
	}
}

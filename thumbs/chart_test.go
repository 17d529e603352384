package thumbs

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"math/rand/v2"
	"testing"
)

// chart draws a bar-and-line chart the way matplotlib's defaults look: white
// background, light grid, flat-coloured bars and a 2 px line. Flat areas and
// thin lines are what make real charts compress and scale the way they do.
func chart(seed uint64, w, h int) *image.RGBA {
	rng := rand.New(rand.NewPCG(seed, 7))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fill(img, img.Bounds(), color.White)
	left, bottom := w/10, h-h/10
	grid := color.RGBA{0xdd, 0xdd, 0xdd, 0xff}
	for y := bottom; y > h/20; y -= h / 8 {
		fill(img, image.Rect(left, y, w-w/20, y+1), grid)
	}
	fill(img, image.Rect(left, h/20, left+2, bottom), color.Black)
	fill(img, image.Rect(left, bottom, w-w/20, bottom+2), color.Black)

	bars := 6 + rng.IntN(10)
	slot := (w - w/20 - left) / bars
	blue := color.RGBA{0x1f, 0x77, 0xb4, 0xff}
	for i := range bars {
		top := bottom - rng.IntN(bottom-h/10)
		x := left + i*slot + slot/5
		fill(img, image.Rect(x, top, x+slot*3/5, bottom), blue)
	}
	polyline(img, rng, left, bottom, w-w/20, h/10, color.RGBA{0xff, 0x7f, 0x0e, 0xff})
	for y := bottom; y > h/20; y -= h / 8 {
		label(img, rng, left-40, y-4)
	}
	for i := range bars {
		label(img, rng, left+i*slot+slot/2-15, bottom+10)
	}
	return img
}

// label stands in for tick text: four 5×8 glyphs of random dark pixels,
// which is what makes real charts' edges hard to compress and to scale.
func label(img *image.RGBA, rng *rand.Rand, x, y int) {
	ink := color.RGBA{0x26, 0x26, 0x26, 0xff}
	for g := range 4 {
		for dy := range 8 {
			for dx := range 5 {
				if rng.IntN(3) == 0 {
					img.Set(x+g*7+dx, y+dy, ink)
				}
			}
		}
	}
}

func fill(img draw.Image, r image.Rectangle, c color.Color) {
	draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Src)
}

// polyline plots a random walk as 2 px dots along each segment.
func polyline(img *image.RGBA, rng *rand.Rand, x0, y0, x1, y1 int, c color.Color) {
	prevX, prevY := float64(x0), float64(y0+y1)/2
	for x := x0 + 40; x <= x1; x += 40 {
		y := math.Max(float64(y1), math.Min(float64(y0), prevY+rng.NormFloat64()*float64(y0-y1)/8))
		steps := int(math.Hypot(float64(x)-prevX, y-prevY))
		for s := range steps {
			t := float64(s) / float64(steps)
			px, py := int(prevX+t*(float64(x)-prevX)), int(prevY+t*(y-prevY))
			fill(img, image.Rect(px, py, px+2, py+2), c)
		}
		prevX, prevY = float64(x), y
	}
}

func encodePNG(tb testing.TB, img image.Image) []byte {
	tb.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

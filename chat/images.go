package chat

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// ShownImages are the images a cell shows inline: its final ones, or,
// until they come (or for good if the cell was stopped), the figures it
// showed while it ran. Only PNG, JPEG and GIF data: URLs are shown; any
// other (an SVG could carry script) waits for the artifact copy.
func (c *Cell) ShownImages() []string {
	images := c.Images
	if len(images) == 0 {
		images = c.LiveImages
	}
	var shown []string
	for _, img := range images {
		if isInlineImage(img) {
			shown = append(shown, img)
		}
	}
	return shown
}

func isInlineImage(url string) bool {
	for _, p := range []string{"data:image/png;base64,", "data:image/jpeg;base64,", "data:image/gif;base64,"} {
		if strings.HasPrefix(url, p) {
			return true
		}
	}
	return false
}

// ImageKey names an inline image (a data: URL) by its content, so that a
// page can load it once by URL instead of receiving its bytes again with
// every streamed update, and a browser may keep it for good.
func ImageKey(dataURL string) string {
	sum := sha256.Sum256([]byte(dataURL))
	return hex.EncodeToString(sum[:12])
}

// ImageKey is ImageKey(dataURL), hashed once per image of the answer: a
// live answer is rendered again with every streamed update, and its
// images do not change.
func (a *Answer) ImageKey(dataURL string) string {
	if k, ok := a.imageKeys[dataURL]; ok {
		return k
	}
	if a.imageKeys == nil {
		a.imageKeys = map[string]string{}
	}
	k := ImageKey(dataURL)
	a.imageKeys[dataURL] = k
	return k
}

// InlineImage returns the bytes and content type of the image of the
// answer named key (ImageKey), wherever a cell shows it.
func (a *Answer) InlineImage(key string) ([]byte, string, bool) {
	for _, c := range a.Cells {
		for _, img := range c.ShownImages() {
			if a.ImageKey(img) != key {
				continue
			}
			b, ok := decodeDataURL(img)
			if !ok {
				return nil, "", false
			}
			meta, _, _ := strings.Cut(strings.TrimPrefix(img, "data:"), ";")
			return b, meta, true
		}
	}
	return nil, "", false
}

// InlinePNGs are the PNG images the finished cell came with (the local
// engine's data: URLs), decoded; live figures and other images are not.
func (c *Cell) InlinePNGs() [][]byte {
	var out [][]byte
	for _, url := range c.Images {
		if b, ok := decodeDataURL(url); ok && strings.HasPrefix(url, "data:image/png") {
			out = append(out, b)
		}
	}
	return out
}

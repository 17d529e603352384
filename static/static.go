// Package static embeds the stylesheet, scripts, vendored htmx and icons,
// and serves them under content-hashed URLs with long cache lifetimes: a
// changed file gets a new URL, so browsers never keep a stale copy.
package static

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

//go:embed css js vendor img
var files embed.FS

// Prefix is the URL path under which assets are served.
const Prefix = "/static/"

type asset struct {
	name string // path inside the embedded tree, e.g. "css/app.css"
	data []byte
}

// byName maps an asset's name to its hashed URL, and byURL the reverse; both
// are built once from the embedded files and never change.
var byName, byURL = index()

func index() (map[string]string, map[string]asset) {
	names, urls := map[string]string{}, map[string]asset{}
	fs.WalkDir(files, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := files.ReadFile(name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		ext := path.Ext(name)
		url := Prefix + strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:6]) + ext
		names[name] = url
		urls[url] = asset{name: name, data: data}
		return nil
	})
	return names, urls
}

// URL returns the content-hashed URL of the named asset ("css/app.css").
// It panics on an unknown name: that is a typo in a template, caught by the
// first test that renders the page.
func URL(name string) string {
	url, ok := byName[name]
	if !ok {
		panic("static: no asset " + name)
	}
	return url
}

// Handler serves the assets by their hashed URLs. The URL changes with the
// content, so a year-long immutable cache lifetime is safe.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a, ok := byURL[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		http.ServeContent(w, r, a.name, time.Time{}, bytes.NewReader(a.data))
	})
}

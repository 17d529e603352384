package handlers

import (
	"strings"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/views"
)

// chartsOf sorts an answer's own files into charts by cell and other files.
// A spec pairs with the PNG of the same name, which it makes interactive;
// a spec alone is a chart of its own. The PNG stays the artifact of the
// gallery, the zip and the notebook.
func chartsOf(sharePath string, arts []chat.ArtifactRef) (map[string][]views.Chart, []views.ArtifactChip) {
	specs := map[string]chat.ArtifactRef{}
	for _, art := range arts {
		if base, ok := strings.CutSuffix(art.Name, chat.VegaLiteExt); ok {
			specs[base] = art
		}
	}
	charts := map[string][]views.Chart{}
	var files []views.ArtifactChip
	for _, art := range arts {
		switch {
		case art.Kind == store.ArtifactImage:
			ch := views.Chart{ID: art.ID, Name: art.Name}
			base := strings.TrimSuffix(art.Name, ".png")
			if spec, ok := specs[base]; ok && base != art.Name {
				ch.VegaLite = views.ArtifactURL(sharePath, spec.ID, false)
				delete(specs, base)
			}
			charts[art.CellID] = append(charts[art.CellID], ch)
		case !strings.HasSuffix(art.Name, chat.VegaLiteExt):
			files = append(files, views.ArtifactChip{ID: art.ID, Name: art.Name, Size: art.Size, ContentType: art.ContentType,
				Flaw: fileFlaw(art.Flaw)})
		}
	}
	for _, art := range arts { // specs with no PNG, in order
		if base, ok := strings.CutSuffix(art.Name, chat.VegaLiteExt); ok && specs[base].ID == art.ID {
			charts[art.CellID] = append(charts[art.CellID], views.Chart{ID: art.ID, Name: art.Name,
				VegaLite: views.ArtifactURL(sharePath, art.ID, false), NoImage: true})
		}
	}
	return charts, files
}

// chartTwins returns the ids of the specs that pair with a PNG of the same
// name made by the same turn: the gallery shows that PNG as the chart, and
// lists no spec beside it as a file of its own.
func chartTwins(arts []*store.Artifact) map[string]bool {
	pngs := map[[2]string]bool{}
	for _, a := range arts {
		if base, ok := strings.CutSuffix(a.Name, ".png"); ok && a.Kind == store.ArtifactImage {
			pngs[[2]string{a.RunID, base}] = true
		}
	}
	twins := map[string]bool{}
	for _, a := range arts {
		if base, ok := strings.CutSuffix(a.Name, chat.VegaLiteExt); ok && pngs[[2]string{a.RunID, base}] {
			twins[a.ID] = true
		}
	}
	return twins
}

package files

import (
	"archive/zip"
	"strings"
)

// What a workbook's profile is estimated to need in memory, from the sizes
// its directory declares. excelize holds every part whole but the
// worksheets and shared strings over xlsxOptions.UnzipXMLSizeLimit, and
// parses the XML it holds into structures several times its size. Shared
// strings it streams from a temporary file cost it two offsets a string,
// some 40 bytes, for as few as 17 bytes of XML (<si><t>x</t></si>).
const (
	xlsxBaseCost int64 = 16 << 20
	heldFactor   int64 = 4
	sstFactor    int64 = 3
)

// xlsxCost returns the estimated memory a profile of the workbook with
// these entries needs, and the bytes of the parts excelize holds whole.
func xlsxCost(entries []*zip.File) (cost, held int64) {
	var streamedSST int64
	for _, e := range entries {
		size, _ := declaredSizes(e)
		name := strings.ToLower(strings.ReplaceAll(e.Name, `\`, "/"))
		switch {
		case size <= xlsxOptions.UnzipXMLSizeLimit:
			held += size
		case name == "xl/sharedstrings.xml":
			streamedSST += size
		case strings.HasPrefix(name, "xl/worksheets/sheet"):
		default:
			held += size
		}
	}
	return xlsxBaseCost + heldFactor*held + sstFactor*streamedSST, held
}

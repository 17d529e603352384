// Command wngen turns WordNet 3.0's database files (Debian's wordnet-base, under
// /usr/share/wordnet) into the compact table the language package embeds. It keeps lemmas with
// their parts of speech and senses, the exception lists of morphology, noun and verb hypernyms,
// derivational links and adjective attributes; glosses, examples, frames and every other
// pointer are dropped.
//
//	go run ./internal/wngen -dict /usr/share/wordnet -out wordnet.gz
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/analyst-workbench/workbench/emulator/analyst/language/internal/wntable"
)

func main() {
	dict := flag.String("dict", "/usr/share/wordnet", "directory of WordNet's index.*, data.* and *.exc files")
	out := flag.String("out", "wordnet.gz", "table to write")
	flag.Parse()
	t, err := build(*dict)
	if err != nil {
		log.Fatal(err)
	}
	var buf bytes.Buffer
	if err := wntable.Encode(&buf, t); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("wngen: %d lemmas, %d synsets, %d bytes\n", len(t.Lemmas), len(t.SynsetPOS), buf.Len())
}

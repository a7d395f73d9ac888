// Package bench is the Go warm track: `go test -bench` benchmarks of the Go codecs the cold
// children measure, on the same documents, in Go's standard benchmark format, so that a Go user
// can also run benchstat on the raw output (scripts/warm-go.sh runs them, one process per fork
// round, into results/warm/go/, and `analysis report` reads them).
//
// One benchmark per cell, named `BenchmarkThaw/codec=<id>/fixture=<name>/op=<de|ser>` (the
// codec ids are the cold codecs', runtimes/go/codec-<id>.toml). Its documents come from the
// folder THAW_GO_FIXTURES names (a cold run's fixtures/: <name>.json and <name>.tree.txt), the
// fixtures from THAW_GO_FIXTURE_NAMES (comma-separated; users-2kb by default). Each loop is the
// cold curve mode's: `de` refreshes one working copy of the document before each call (a 2 KB
// copy, inside the loop, for every codec alike) and decodes into a new value; `ser` encodes the
// one value built from the neutral tree, the library's new []byte each call.
//
// Checked before it is timed: `de`'s value walks to the same digest as the value built by hand
// from the neutral tree, and `ser`'s output, read back by encoding/json, does too.
package bench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"thaw/runtimes/go/harness"
	"thaw/runtimes/go/model"
)

// codec is one library used one way, as the cold child of the same id uses it.
type codec struct {
	id   string
	init func()
	de   func([]byte) (*model.Users, error)
	ser  func(*model.Users) ([]byte, error)
}

func fixtures(b *testing.B) (dir string, names []string) {
	dir = os.Getenv("THAW_GO_FIXTURES")
	if dir == "" {
		b.Skip("THAW_GO_FIXTURES names no folder of documents (scripts/warm-go.sh sets it)")
	}
	names = []string{"users-2kb"}
	if list := os.Getenv("THAW_GO_FIXTURE_NAMES"); list != "" {
		names = strings.Split(list, ",")
	}
	return dir, names
}

func BenchmarkThaw(b *testing.B) {
	dir, names := fixtures(b)
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(dir, name+".json"))
		if err != nil {
			b.Fatal(err)
		}
		treeText, err := os.ReadFile(filepath.Join(dir, name+".tree.txt"))
		if err != nil {
			b.Fatal(err)
		}
		tree, err := harness.ReadTree(treeText)
		if err != nil {
			b.Fatal(err)
		}
		value, err := model.UsersFromTree(tree)
		if err != nil {
			b.Fatal(err)
		}
		want := model.Digest(value)
		for _, c := range codecs {
			c.init()
			b.Run("codec="+c.id+"/fixture="+name+"/op=de", func(b *testing.B) {
				work := append([]byte(nil), data...)
				if got, err := c.de(work); err != nil || model.Digest(got) != want {
					b.Fatalf("%s de of %s: not the document's value (%v)", c.id, name, err)
				}
				for b.Loop() {
					copy(work, data)
					if _, err := c.de(work); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("codec="+c.id+"/fixture="+name+"/op=ser", func(b *testing.B) {
				out, err := c.ser(value)
				var back model.Users
				if err != nil || json.Unmarshal(out, &back) != nil || model.Digest(&back) != want {
					b.Fatalf("%s ser of %s: not the document's value (%v)", c.id, name, err)
				}
				for b.Loop() {
					if _, err := c.ser(value); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

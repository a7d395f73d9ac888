// The cold child of segmentio/encoding's json (docs/child-protocol.md): json.Unmarshal into the
// model, json.Marshal of it (a new []byte per call), its package-level functions.
package main

import (
	"github.com/segmentio/encoding/json"

	"thaw/runtimes/go/harness"
	"thaw/runtimes/go/model"
)

func main() {
	start := harness.Now()
	harness.Run(start, model.UsersModel, harness.Package[model.Users](json.Unmarshal, json.Marshal, func() string { return harness.ModuleVersion("github.com/segmentio/encoding") }), false)
}

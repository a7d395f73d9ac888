// The cold child of json-iterator/go (docs/child-protocol.md): jsoniter.Unmarshal into the
// model, jsoniter.Marshal of it (a new []byte per call), its package-level functions (its
// ConfigDefault, made when the package initialises, before main).
package main

import (
	jsoniter "github.com/json-iterator/go"

	"thaw/runtimes/go/harness"
	"thaw/runtimes/go/model"
)

func main() {
	start := harness.Now()
	harness.Run(start, model.UsersModel, harness.Package[model.Users](jsoniter.Unmarshal, jsoniter.Marshal, func() string { return harness.ModuleVersion("github.com/json-iterator/go") }), false)
}

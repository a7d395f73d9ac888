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
	harness.Run(start, model.UsersModel, harness.Codec[model.Users]{
		Init: func() {},
		De: func(b []byte) (*model.Users, error) {
			var v model.Users
			err := json.Unmarshal(b, &v)
			return &v, err
		},
		Ser:       func(v *model.Users) ([]byte, error) { return json.Marshal(v) },
		WriteBack: func(v *model.Users) ([]byte, error) { return json.Marshal(v) },
		Version:   func() string { return harness.ModuleVersion("github.com/segmentio/encoding") },
	}, false)
}

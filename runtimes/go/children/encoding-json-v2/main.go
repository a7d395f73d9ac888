//go:build goexperiment.jsonv2

// The cold child of encoding/json/v2 (reflection; docs/child-protocol.md), which Go 1.26 ships
// behind GOEXPERIMENT=jsonv2: json.Unmarshal into the model, json.Marshal of it (a new []byte per
// call), its default options.
package main

import (
	"encoding/json/v2"

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
		Version:   harness.GoVersion,
	}, false)
}

// The cold child of the standard library's encoding/json (reflection; docs/child-protocol.md):
// json.Unmarshal into the model, json.Marshal of it (a new []byte per call). The same source is
// built twice (runtimes/go/build.sh): as Go ships it (`encoding-json`) and under
// GOEXPERIMENT=jsonv2 (`encoding-json-jsonv2`), where encoding/json's v1 API runs on the v2
// implementation.
package main

import (
	"encoding/json"

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

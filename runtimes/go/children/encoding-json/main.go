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
	harness.Run(start, model.UsersModel, harness.Package[model.Users](json.Unmarshal, json.Marshal, harness.GoVersion), false)
}

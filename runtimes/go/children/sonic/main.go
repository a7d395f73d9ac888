// The cold child of bytedance/sonic in its default configuration (docs/child-protocol.md):
// sonic.Unmarshal into the model, sonic.Marshal of it (a new []byte per call). Sonic compiles a
// codec for each type on its first use (a just-in-time compiler to machine code), so that work
// falls in the first call.
package main

import (
	"github.com/bytedance/sonic"

	"thaw/runtimes/go/harness"
	"thaw/runtimes/go/model"
)

func main() {
	start := harness.Now()
	harness.Run(start, model.UsersModel, harness.Package[model.Users](sonic.Unmarshal, sonic.Marshal, func() string { return harness.ModuleVersion("github.com/bytedance/sonic") }), false)
}

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
	harness.Run(start, model.UsersModel, harness.Codec[model.Users]{
		Init: func() {},
		De: func(b []byte) (*model.Users, error) {
			var v model.Users
			err := sonic.Unmarshal(b, &v)
			return &v, err
		},
		Ser:       func(v *model.Users) ([]byte, error) { return sonic.Marshal(v) },
		WriteBack: func(v *model.Users) ([]byte, error) { return sonic.Marshal(v) },
		Version:   func() string { return harness.ModuleVersion("github.com/bytedance/sonic") },
	}, false)
}

// The cold child of mailru/easyjson (docs/child-protocol.md): code generated at build time for
// the model (package easymodel), called through easyjson.Unmarshal and easyjson.Marshal (a new
// []byte per call); no reflection at run time.
package main

import (
	"github.com/mailru/easyjson"

	"thaw/runtimes/go/easymodel"
	"thaw/runtimes/go/harness"
	"thaw/runtimes/go/model"
)

func main() {
	start := harness.Now()
	harness.Run(start, model.UsersModel, harness.Codec[model.Users]{
		Init: func() {},
		De: func(b []byte) (*model.Users, error) {
			var v easymodel.Users
			err := easyjson.Unmarshal(b, &v)
			return (*model.Users)(&v), err
		},
		Ser:       func(v *model.Users) ([]byte, error) { return easyjson.Marshal((*easymodel.Users)(v)) },
		WriteBack: func(v *model.Users) ([]byte, error) { return easyjson.Marshal((*easymodel.Users)(v)) },
		Version:   func() string { return harness.ModuleVersion("github.com/mailru/easyjson") },
	}, false)
}

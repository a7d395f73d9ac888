// The cold child of bytedance/sonic with sonic.Pretouch of the model's type in `init`
// (docs/child-protocol.md): the codecs sonic would compile on the first call are compiled there
// instead (its encoder and decoder, as Pretouch does by default), so their cost shows as init,
// not as the first call. Then sonic.Unmarshal and sonic.Marshal as the `sonic` child.
package main

import (
	"reflect"

	"github.com/bytedance/sonic"

	"thaw/runtimes/go/harness"
	"thaw/runtimes/go/model"
)

func main() {
	start := harness.Now()
	harness.Run(start, model.UsersModel, harness.Codec[model.Users]{
		Init: func() {
			if err := sonic.Pretouch(reflect.TypeFor[model.Users]()); err != nil {
				panic(err)
			}
		},
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

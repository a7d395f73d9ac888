//go:build !goexperiment.jsonv2

// The codecs of the default build (what Go ships): each as its cold child calls it.
package bench

import (
	stdjson "encoding/json"
	"reflect"

	"github.com/bytedance/sonic"
	goccy "github.com/goccy/go-json"
	jsoniter "github.com/json-iterator/go"
	"github.com/mailru/easyjson"
	segmentio "github.com/segmentio/encoding/json"

	"thaw/runtimes/go/easymodel"
	"thaw/runtimes/go/model"
)

func none() {}

var codecs = []codec{
	{"encoding-json", none,
		func(b []byte) (*model.Users, error) { var v model.Users; return &v, stdjson.Unmarshal(b, &v) },
		func(v *model.Users) ([]byte, error) { return stdjson.Marshal(v) }},
	{"sonic", none,
		func(b []byte) (*model.Users, error) { var v model.Users; return &v, sonic.Unmarshal(b, &v) },
		func(v *model.Users) ([]byte, error) { return sonic.Marshal(v) }},
	{"sonic-pretouch", func() {
		if err := sonic.Pretouch(reflect.TypeFor[model.Users]()); err != nil {
			panic(err)
		}
	},
		func(b []byte) (*model.Users, error) { var v model.Users; return &v, sonic.Unmarshal(b, &v) },
		func(v *model.Users) ([]byte, error) { return sonic.Marshal(v) }},
	{"easyjson", none,
		func(b []byte) (*model.Users, error) {
			var v easymodel.Users
			return (*model.Users)(&v), easyjson.Unmarshal(b, &v)
		},
		func(v *model.Users) ([]byte, error) { return easyjson.Marshal((*easymodel.Users)(v)) }},
	{"goccy", none,
		func(b []byte) (*model.Users, error) { var v model.Users; return &v, goccy.Unmarshal(b, &v) },
		func(v *model.Users) ([]byte, error) { return goccy.Marshal(v) }},
	{"segmentio", none,
		func(b []byte) (*model.Users, error) { var v model.Users; return &v, segmentio.Unmarshal(b, &v) },
		func(v *model.Users) ([]byte, error) { return segmentio.Marshal(v) }},
	{"jsoniter", none,
		func(b []byte) (*model.Users, error) { var v model.Users; return &v, jsoniter.Unmarshal(b, &v) },
		func(v *model.Users) ([]byte, error) { return jsoniter.Marshal(v) }},
}

//go:build goexperiment.jsonv2

// The codecs of the GOEXPERIMENT=jsonv2 build: encoding/json's v1 API on the v2 implementation
// (the cold codec encoding-json-jsonv2) and encoding/json/v2 itself.
package bench

import (
	stdjson "encoding/json"
	jsonv2 "encoding/json/v2"

	"thaw/runtimes/go/model"
)

func none() {}

var codecs = []codec{
	{"encoding-json-jsonv2", none,
		func(b []byte) (*model.Users, error) { var v model.Users; return &v, stdjson.Unmarshal(b, &v) },
		func(v *model.Users) ([]byte, error) { return stdjson.Marshal(v) }},
	{"encoding-json-v2", none,
		func(b []byte) (*model.Users, error) { var v model.Users; return &v, jsonv2.Unmarshal(b, &v) },
		func(v *model.Users) ([]byte, error) { return jsonv2.Marshal(v) }},
}

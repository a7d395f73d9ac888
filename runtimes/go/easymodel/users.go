// Package easymodel is the Users model for mailru/easyjson, whose marshalling code is generated
// at build time by its generator (users_easyjson.go, committed; `go generate ./easymodel`
// regenerates it with the generator go.mod pins as a tool: easyjson v0.9.2). The types are
// package model's (the same fields and JSON names), declared again here so that the generated
// methods belong to this package alone and no other child links them.
package easymodel

import "thaw/runtimes/go/model"

//go:generate go tool easyjson -no_std_marshalers users.go

// Users is the root.
//
//easyjson:json
type Users model.Users

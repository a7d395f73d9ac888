// Package model is the Users model of thaw's Go children: java-json-benchmark's Users, the Rust
// and JVM models' shape and JSON names (crates/codecs/src/models/users.rs), with the
// `json:"…"` tags every Go library here reads. Beside it, by hand and with no library: the value
// a `ser` child writes, built from the neutral tree, and the structural digest of a decoded value.
//
// Clients is not here: its UUID and exact decimal have no type in Go's standard library, and
// none of the libraries measured brings one (a Go program adds github.com/google/uuid and
// github.com/shopspring/decimal, not among the modules pinned), so every Go codec declares the
// Clients cells unsupported, with that reason, in its description.
package model

import (
	"fmt"

	"thaw/runtimes/go/harness"
)

// Users is the root.
type Users struct {
	Users []User `json:"users"`
}

// User is one user.
type User struct {
	ID            string   `json:"id"`
	Index         int32    `json:"index"`
	GUID          string   `json:"guid"`
	IsActive      bool     `json:"isActive"`
	Balance       string   `json:"balance"`
	Picture       string   `json:"picture"`
	Age           int32    `json:"age"`
	EyeColor      string   `json:"eyeColor"`
	Name          string   `json:"name"`
	Gender        string   `json:"gender"`
	Company       string   `json:"company"`
	Email         string   `json:"email"`
	Phone         string   `json:"phone"`
	Address       string   `json:"address"`
	About         string   `json:"about"`
	Registered    string   `json:"registered"`
	Latitude      float64  `json:"latitude"`
	Longitude     float64  `json:"longitude"`
	Tags          []string `json:"tags"`
	Friends       []Friend `json:"friends"`
	Greeting      string   `json:"greeting"`
	FavoriteFruit string   `json:"favoriteFruit"`
}

// Friend is one friend of a user.
type Friend struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// UsersModel is what the harness needs of the model.
var UsersModel = harness.Model[Users]{FromTree: UsersFromTree, Digest: Digest}

// treeError is a tree that is not a Users value.
type treeError struct{ at, want string }

func (e treeError) Error() string { return fmt.Sprintf("at %s: not %s", e.at, e.want) }

type builder struct{ err error }

func (b *builder) node(n *harness.Node, key, at string, kind byte) *harness.Node {
	if b.err != nil {
		return nil
	}
	m := n.Get(key)
	if m == nil || m.Kind != kind {
		b.err = treeError{at + "." + key, fmt.Sprintf("a value of kind %q", kind)}
		return nil
	}
	return m
}

func (b *builder) str(n *harness.Node, key, at string) string {
	if m := b.node(n, key, at, 's'); m != nil {
		return m.Str
	}
	return ""
}

func (b *builder) int32(n *harness.Node, key, at string) int32 {
	if m := b.node(n, key, at, 'i'); m != nil {
		return int32(m.Int)
	}
	return 0
}

func (b *builder) float(n *harness.Node, key, at string) float64 {
	if b.err != nil {
		return 0
	}
	m := n.Get(key)
	switch {
	case m != nil && m.Kind == 'f':
		return m.Float
	case m != nil && m.Kind == 'i':
		return float64(m.Int)
	}
	b.err = treeError{at + "." + key, "a number"}
	return 0
}

func (b *builder) bool(n *harness.Node, key, at string) bool {
	if b.err != nil {
		return false
	}
	m := n.Get(key)
	if m == nil || (m.Kind != 't' && m.Kind != 'F') {
		b.err = treeError{at + "." + key, "a boolean"}
		return false
	}
	return m.Kind == 't'
}

// UsersFromTree builds a Users value from the neutral tree, by hand.
func UsersFromTree(root *harness.Node) (*Users, error) {
	b := &builder{}
	if root.Kind != '{' {
		return nil, treeError{"the root", "an object"}
	}
	list := b.node(root, "users", "", '[')
	if b.err != nil {
		return nil, b.err
	}
	out := &Users{Users: make([]User, 0, len(list.Items))}
	for i, u := range list.Items {
		at := fmt.Sprintf(".users[%d]", i)
		if u.Kind != '{' {
			return nil, treeError{at, "an object"}
		}
		user := User{
			ID:            b.str(u, "id", at),
			Index:         b.int32(u, "index", at),
			GUID:          b.str(u, "guid", at),
			IsActive:      b.bool(u, "isActive", at),
			Balance:       b.str(u, "balance", at),
			Picture:       b.str(u, "picture", at),
			Age:           b.int32(u, "age", at),
			EyeColor:      b.str(u, "eyeColor", at),
			Name:          b.str(u, "name", at),
			Gender:        b.str(u, "gender", at),
			Company:       b.str(u, "company", at),
			Email:         b.str(u, "email", at),
			Phone:         b.str(u, "phone", at),
			Address:       b.str(u, "address", at),
			About:         b.str(u, "about", at),
			Registered:    b.str(u, "registered", at),
			Latitude:      b.float(u, "latitude", at),
			Longitude:     b.float(u, "longitude", at),
			Greeting:      b.str(u, "greeting", at),
			FavoriteFruit: b.str(u, "favoriteFruit", at),
		}
		if tags := b.node(u, "tags", at, '['); tags != nil {
			user.Tags = make([]string, 0, len(tags.Items))
			for j, t := range tags.Items {
				if t.Kind != 's' {
					return nil, treeError{fmt.Sprintf("%s.tags[%d]", at, j), "a string"}
				}
				user.Tags = append(user.Tags, t.Str)
			}
		}
		if friends := b.node(u, "friends", at, '['); friends != nil {
			user.Friends = make([]Friend, 0, len(friends.Items))
			for j, f := range friends.Items {
				fat := fmt.Sprintf("%s.friends[%d]", at, j)
				if f.Kind != '{' {
					return nil, treeError{fat, "an object"}
				}
				user.Friends = append(user.Friends, Friend{ID: b.str(f, "id", fat), Name: b.str(f, "name", fat)})
			}
		}
		if b.err != nil {
			return nil, b.err
		}
		out.Users = append(out.Users, user)
	}
	return out, nil
}

// Digest is the structural digest of a Users value (harness/digest.go says how), by hand.
func Digest(u *Users) uint64 {
	d := harness.NewDigest()
	d.Object(1)
	d.Array(len(u.Users))
	for i := range u.Users {
		x := &u.Users[i]
		d.Object(22)
		d.String(x.ID)
		d.Int(int64(x.Index))
		d.String(x.GUID)
		d.Bool(x.IsActive)
		d.String(x.Balance)
		d.String(x.Picture)
		d.Int(int64(x.Age))
		d.String(x.EyeColor)
		d.String(x.Name)
		d.String(x.Gender)
		d.String(x.Company)
		d.String(x.Email)
		d.String(x.Phone)
		d.String(x.Address)
		d.String(x.About)
		d.String(x.Registered)
		d.Float(x.Latitude)
		d.Float(x.Longitude)
		d.Array(len(x.Tags))
		for _, t := range x.Tags {
			d.String(t)
		}
		d.Array(len(x.Friends))
		for _, f := range x.Friends {
			d.Object(2)
			d.String(f.ID)
			d.String(f.Name)
		}
		d.String(x.Greeting)
		d.String(x.FavoriteFruit)
	}
	return d.Sum()
}

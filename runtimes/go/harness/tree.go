// The neutral tree as text (docs/child-protocol.md), the input of a `ser` child, read by hand so
// that no JSON library runs before the clock: one value per line, in pre-order.
//
//	`{ N` an object of N members, each a line `k HEX` (its key) then its value
//	`[ N` an array of N values   `s HEX` a string (UTF-8 in hexadecimal)
//	`i N` a whole number   `f X` a double   `t`, `F`, `n` true, false, null
package harness

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strconv"
)

// Node is one value of the tree.
type Node struct {
	// Kind is the line's tag: '{', '[', 's', 'i', 'f', 't', 'F' or 'n'.
	Kind  byte
	Str   string
	Int   int64
	Float float64
	// Keys and Items: an object's keys and values (in order), an array's items.
	Keys  []string
	Items []*Node
}

// Get is the member `key` of an object, or nil.
func (n *Node) Get(key string) *Node {
	for i, k := range n.Keys {
		if k == key {
			return n.Items[i]
		}
	}
	return nil
}

// ReadTree reads the neutral tree.
func ReadTree(text []byte) (*Node, error) {
	r := treeReader{lines: bytes.Split(text, []byte("\n"))}
	return r.value()
}

type treeReader struct {
	lines [][]byte
	pos   int
}

func (r *treeReader) next() ([]byte, error) {
	if r.pos >= len(r.lines) {
		return nil, fmt.Errorf("the tree ends early, at line %d", r.pos+1)
	}
	r.pos++
	return r.lines[r.pos-1], nil
}

func (r *treeReader) value() (*Node, error) {
	line, err := r.next()
	if err != nil {
		return nil, err
	}
	tag, rest, _ := bytes.Cut(line, []byte(" "))
	bad := func() (*Node, error) { return nil, fmt.Errorf("bad tree line %d: %q", r.pos, line) }
	if len(tag) != 1 {
		return bad()
	}
	n := &Node{Kind: tag[0]}
	switch tag[0] {
	case '{', '[':
		count, err := strconv.Atoi(string(rest))
		if err != nil || count < 0 || count > len(r.lines) {
			return bad()
		}
		n.Items = make([]*Node, 0, count)
		for i := 0; i < count; i++ {
			if tag[0] == '{' {
				keyLine, err := r.next()
				if err != nil {
					return nil, err
				}
				if !bytes.HasPrefix(keyLine, []byte("k ")) {
					return nil, fmt.Errorf("bad tree line %d: %q, not a key", r.pos, keyLine)
				}
				key, err := hex.DecodeString(string(keyLine[2:]))
				if err != nil {
					return nil, fmt.Errorf("bad tree line %d: %v", r.pos, err)
				}
				n.Keys = append(n.Keys, string(key))
			}
			item, err := r.value()
			if err != nil {
				return nil, err
			}
			n.Items = append(n.Items, item)
		}
	case 's':
		s, err := hex.DecodeString(string(rest))
		if err != nil {
			return bad()
		}
		n.Str = string(s)
	case 'i':
		if n.Int, err = strconv.ParseInt(string(rest), 10, 64); err != nil {
			return bad()
		}
	case 'f':
		if n.Float, err = strconv.ParseFloat(string(rest), 64); err != nil {
			return bad()
		}
	case 't', 'F', 'n':
	default:
		return bad()
	}
	return n, nil
}

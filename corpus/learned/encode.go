package learned

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
)

// magic opens an encoded model; its version changes with the format.
const magic = "lexflow-learned/2\n"

// MarshalBinary encodes the model: the magic, the dimensions, the terms (name, weight)
// in the order they were learned, the documents' numbers, then each part's term
// vectors and document vectors.
func (m *Model) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(magic)
	putUvarint(&b, uint64(m.Dim))
	putUvarint(&b, uint64(len(m.names)))
	for i, name := range m.names {
		putUvarint(&b, uint64(len(name)))
		b.WriteString(name)
		putFloats(&b, m.weights[i:i+1])
	}
	putUvarint(&b, uint64(len(m.docs)))
	for _, d := range m.docs {
		putUvarint(&b, uint64(d))
	}
	putUvarint(&b, uint64(len(m.parts)))
	for _, p := range m.parts {
		putFloats(&b, p.vecs)
		putFloats(&b, p.docVecs)
	}
	return b.Bytes(), nil
}

// Limits of a model UnmarshalBinary accepts, so that a damaged one cannot ask for
// unbounded memory.
const (
	maxDim     = 1024
	maxEntries = 1 << 24
	maxName    = 1 << 10
	maxParts   = 16
)

// UnmarshalBinary decodes what MarshalBinary encoded.
func (m *Model) UnmarshalBinary(data []byte) error {
	r := bytes.NewReader(data)
	head := make([]byte, len(magic))
	if _, err := io.ReadFull(r, head); err != nil || string(head) != magic {
		return errors.New("learned: not an encoded model")
	}
	dim, err := uvarint(r, maxDim)
	if err != nil {
		return err
	}
	out := Model{Dim: int(dim), terms: map[string]int32{}}
	n, err := uvarint(r, maxEntries)
	if err != nil {
		return err
	}
	for i := range n {
		size, err := uvarint(r, maxName)
		if err != nil {
			return err
		}
		name := make([]byte, size)
		if _, err := io.ReadFull(r, name); err != nil {
			return fmt.Errorf("learned: term %d: %w", i, err)
		}
		out.terms[string(name)] = int32(i)
		out.names = append(out.names, string(name))
		if out.weights, err = getFloats(r, out.weights, 1); err != nil {
			return err
		}
	}
	if n, err = uvarint(r, maxEntries); err != nil {
		return err
	}
	for range n {
		d, err := uvarint(r, math.MaxInt32)
		if err != nil {
			return err
		}
		out.docs = append(out.docs, int32(d))
	}
	parts, err := uvarint(r, maxParts)
	if err != nil {
		return err
	}
	for range parts {
		var p part
		if p.vecs, err = getFloats(r, nil, len(out.names)*out.Dim); err != nil {
			return err
		}
		if p.docVecs, err = getFloats(r, nil, len(out.docs)*out.Dim); err != nil {
			return err
		}
		out.parts = append(out.parts, p)
	}
	if r.Len() != 0 {
		return errors.New("learned: bytes after the model")
	}
	*m = out
	return nil
}

func putUvarint(b *bytes.Buffer, x uint64) { b.Write(binary.AppendUvarint(nil, x)) }

func putFloats(b *bytes.Buffer, v []float32) {
	for _, x := range v {
		b.Write(binary.LittleEndian.AppendUint32(nil, math.Float32bits(x)))
	}
}

func uvarint(r *bytes.Reader, limit uint64) (uint64, error) {
	x, err := binary.ReadUvarint(r)
	if err != nil {
		return 0, fmt.Errorf("learned: %w", err)
	}
	if x > limit {
		return 0, fmt.Errorf("learned: %d exceeds %d", x, limit)
	}
	return x, nil
}

// getFloats appends n floats read from r to out; it refuses, before allocating, more
// than r holds.
func getFloats(r *bytes.Reader, out []float32, n int) ([]float32, error) {
	if n > r.Len()/4 {
		return nil, fmt.Errorf("learned: %d floats, %d bytes left", n, r.Len())
	}
	out = slices.Grow(out, n)
	var buf [4]byte
	for range n {
		if _, err := io.ReadFull(r, buf[:]); err != nil {
			return nil, fmt.Errorf("learned: %w", err)
		}
		out = append(out, math.Float32frombits(binary.LittleEndian.Uint32(buf[:])))
	}
	return out, nil
}

package learned

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// magic opens an encoded model; its version changes with the format.
const magic = "lexflow-learned/2\n"

// MarshalBinary encodes the model: the magic, the dimensions, the terms (name, weight)
// in the order they were learned, the documents' numbers, then each part's term
// vectors and document vectors, floats as little-endian IEEE 754.
func (m *Model) MarshalBinary() ([]byte, error) {
	b := []byte(magic)
	b = binary.AppendUvarint(b, uint64(m.Dim))
	b = binary.AppendUvarint(b, uint64(len(m.names)))
	for i, name := range m.names {
		b = binary.AppendUvarint(b, uint64(len(name)))
		b = append(b, name...)
		b = appendFloats(b, m.weights[i:i+1])
	}
	b = binary.AppendUvarint(b, uint64(len(m.docs)))
	for _, d := range m.docs {
		b = binary.AppendUvarint(b, uint64(d))
	}
	b = binary.AppendUvarint(b, uint64(len(m.parts)))
	for _, p := range m.parts {
		b = appendFloats(b, p.vecs)
		b = appendFloats(b, p.docVecs)
	}
	return b, nil
}

func appendFloats(b []byte, v []float32) []byte {
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
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
	if !bytes.HasPrefix(data, []byte(magic)) {
		return errors.New("learned: not an encoded model")
	}
	d := decoder{data: data[len(magic):]}
	out := Model{Dim: int(d.uvarint(maxDim)), terms: map[string]int32{}}
	if out.Dim == 0 && d.err == nil {
		return errors.New("learned: a model of no dimensions")
	}
	n := d.uvarint(maxEntries)
	for i := 0; i < int(n) && d.err == nil; i++ {
		name := string(d.bytes(int(d.uvarint(maxName))))
		out.terms[name] = int32(i)
		out.names = append(out.names, name)
		out.weights = append(out.weights, d.floats(1)...)
	}
	n = d.uvarint(maxEntries)
	for i := 0; i < int(n) && d.err == nil; i++ {
		doc := int32(d.uvarint(math.MaxInt32))
		if i > 0 && doc <= out.docs[i-1] {
			d.fail(errors.New("learned: documents out of order"))
		}
		out.docs = append(out.docs, doc)
	}
	parts := d.uvarint(maxParts)
	if parts == 0 && d.err == nil {
		return errors.New("learned: a model of no parts")
	}
	for i := 0; i < int(parts) && d.err == nil; i++ {
		out.parts = append(out.parts, part{vecs: d.floats(len(out.names) * out.Dim), docVecs: d.floats(len(out.docs) * out.Dim)})
	}
	if d.err != nil {
		return d.err
	}
	if len(d.data) != 0 {
		return errors.New("learned: bytes after the model")
	}
	*m = out
	return nil
}

// decoder reads an encoded model from the front of data; its first error stops it,
// every later read answering zeros.
type decoder struct {
	data []byte
	err  error
}

func (d *decoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
	d.data = nil
}

// uvarint reads a number, at most limit.
func (d *decoder) uvarint(limit uint64) uint64 {
	x, n := binary.Uvarint(d.data)
	switch {
	case d.err != nil:
		return 0
	case n <= 0:
		d.fail(errors.New("learned: a number cut short"))
		return 0
	case x > limit:
		d.fail(fmt.Errorf("learned: %d exceeds %d", x, limit))
		return 0
	}
	d.data = d.data[n:]
	return x
}

// bytes reads n bytes.
func (d *decoder) bytes(n int) []byte {
	if d.err != nil || n > len(d.data) {
		d.fail(fmt.Errorf("learned: %d bytes wanted, %d left", n, len(d.data)))
		return nil
	}
	b := d.data[:n]
	d.data = d.data[n:]
	return b
}

// floats reads n floats; it refuses, before allocating, more than the data holds,
// and a float that is not finite (it would rank at random).
func (d *decoder) floats(n int) []float32 {
	if d.err != nil || n > len(d.data)/4 {
		d.fail(fmt.Errorf("learned: %d floats wanted, %d bytes left", n, len(d.data)))
		return nil
	}
	out := make([]float32, n)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(d.data[4*i:]))
		if f := float64(out[i]); math.IsNaN(f) || math.IsInf(f, 0) {
			d.fail(errors.New("learned: a number that is not finite"))
			return nil
		}
	}
	d.data = d.data[4*n:]
	return out
}

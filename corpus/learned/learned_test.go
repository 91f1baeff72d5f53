package learned

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// toy is a small training set: three documents in one group, each described by a
// few phrasings, one in another language, that share no word with the others'.
func toy() ([]Example, []int32) {
	var ex []Example
	for doc, phrases := range [][]string{
		{"dog bit child", "neighbour dog bite", "en:animal attack", "ro:câine mușcat copil"},
		{"rent flat landlord", "landlord deposit flat", "en:tenant rent", "ro:chirie apartament proprietar"},
		{"stole bike street", "theft bike", "en:stole wallet", "ro:furt bicicletă"},
	} {
		for range 20 {
			for _, p := range phrases {
				ex = append(ex, Example{Terms: strings.Fields(p), Doc: int32(doc)})
			}
		}
	}
	return ex, []int32{0, 0, 0, 1}
}

func nearest(m *Model, q string) []int32 {
	var out []int32
	for _, h := range m.Nearest(m.Vector(strings.Fields(q)), 3, func(int32) bool { return true }) {
		out = append(out, h.Doc)
	}
	return out
}

// TestTrainPlacesByWords: a query lands nearest the document whose phrasings hold its
// words, in either language, and documents no example described are not placed.
func TestTrainPlacesByWords(t *testing.T) {
	ex, group := toy()
	m := Train(ex, group, Options{Dim: 16, Epochs: 5})
	for q, want := range map[string]int32{"dog": 0, "ro:câine": 0, "landlord": 1, "ro:chirie": 1, "bike": 2, "ro:furt": 2} {
		if got := nearest(m, q); len(got) != 3 || got[0] != want {
			t.Errorf("%q: %v, want %d first", q, got, want)
		}
	}
	if got := m.Placed(); !slices.Equal(got, []int32{0, 1, 2}) {
		t.Errorf("placed %v; document 3 has no example", got)
	}
	if v := m.Vector([]string{"unseen"}); v != nil {
		t.Errorf("a query of unknown terms has a vector: %v", v)
	}
	if got := m.Nearest(m.Vector([]string{"dog"}), 3, func(d int32) bool { return d != 0 }); len(got) != 2 || got[0].Doc == 0 {
		t.Errorf("keep left out document 0, yet: %v", got)
	}
}

// TestTrainIsDeterministic: the same examples train the same model, byte for byte,
// and a part trained beside others is the part trained alone.
func TestTrainIsDeterministic(t *testing.T) {
	ex, group := toy()
	a, _ := Train(ex, group, Options{Dim: 8, Epochs: 2, Parts: 3}).MarshalBinary()
	b, _ := Train(ex, group, Options{Dim: 8, Epochs: 2, Parts: 3}).MarshalBinary()
	if !bytes.Equal(a, b) {
		t.Error("two trainings on the same examples differ")
	}
	alone := Train(ex, group, Options{Dim: 8, Epochs: 2, Parts: 1})
	beside := Train(ex, group, Options{Dim: 8, Epochs: 2, Parts: 3})
	if !slices.Equal(alone.parts[0].vecs, beside.parts[0].vecs) || !slices.Equal(alone.parts[0].docVecs, beside.parts[0].docVecs) {
		t.Error("the first part trained beside two others differs from it trained alone")
	}
	if slices.Equal(beside.parts[0].vecs, beside.parts[1].vecs) {
		t.Error("two parts trained alike: their seeds do not differ")
	}
}

// TestMarshalRoundTrip: a decoded model ranks as the trained one, and a cut or
// damaged encoding is refused without a panic.
func TestMarshalRoundTrip(t *testing.T) {
	ex, group := toy()
	m := Train(ex, group, Options{Dim: 8, Epochs: 3})
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back Model
	if err := back.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"dog", "ro:chirie", "theft bike"} {
		if a, b := nearest(m, q), nearest(&back, q); !slices.Equal(a, b) {
			t.Errorf("%q: trained %v, decoded %v", q, a, b)
		}
	}
	for n := range len(data) {
		var cut Model
		if err := cut.UnmarshalBinary(data[:n]); err == nil {
			t.Fatalf("the first %d of %d bytes decoded", n, len(data))
		}
	}
	if err := back.UnmarshalBinary(append(slices.Clone(data), 0)); err == nil {
		t.Error("a trailing byte decoded")
	}
	huge := append([]byte(magic), 0x40, 0xff, 0xff, 0xff, 0xff, 0x07) // 64 dimensions, 2^31-1 terms
	if err := back.UnmarshalBinary(huge); err == nil || !strings.Contains(err.Error(), "exceeds") {
		t.Errorf("a model claiming 2^31 terms: %v", err)
	}
	for name, damaged := range map[string][]byte{
		"no dimensions": append([]byte(magic), 0, 0, 0, 1),
		"no parts":      append([]byte(magic), 8, 0, 0, 0),
		"documents out of order": append(append([]byte(magic), 8, 0, 2, 5, 3, 1),
			make([]byte, 4*8*2)...),
		"a float not a number": append(slices.Clone(data[:len(data)-4]), 0, 0, 0xc0, 0x7f),
	} {
		if err := back.UnmarshalBinary(damaged); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}

// TestTrainsTheSameOnEveryMachine pins the sigmoid's table and a toy model, byte for
// byte: training rounds every product and reads the logistic function from a table so
// that no CPU's fused multiply-add changes a bit, and the eval's floors are the
// figures of one model. A machine where this fails trains another model.
func TestTrainsTheSameOnEveryMachine(t *testing.T) {
	var table bytes.Buffer
	for _, x := range sigmoidTable {
		table.Write(binary.LittleEndian.AppendUint32(nil, math.Float32bits(x)))
	}
	ex, group := toy()
	model, _ := Train(ex, group, Options{Dim: 8, Epochs: 3, Parts: 2}).MarshalBinary()
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"the sigmoid's table": {table.Bytes(), "ccca5bebc53c4723df7fe58b004d57dc133c6bb9c0fa10d3c4d4585c52567f67"},
		"a toy model":         {model, "fc7f2d441330fcc9ec2ff64d599b8b47570a9a22de35830ad5a7cb39a34ca973"},
	} {
		if got := fmt.Sprintf("%x", sha256.Sum256(c.data)); got != c.want {
			t.Errorf("%s: sha256 %s, want %s", name, got, c.want)
		}
	}
}

package dense

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"unicode/utf8"
)

// The sidecar file: a header (magic, the model's and the corpus's names, the vectors'
// length), then one record per document (its ID's length as a uint16, the ID, Dim
// float32s), little-endian, appended batch by batch. A record cut short by a crash is
// dropped when the file is read, and the build resumes after the last whole one.
const magic = "LXVEC1\n"

// SidecarPath is where the vectors of the corpus at corpusPath, for model, are kept:
// beside the corpus, one file per model.
func SidecarPath(corpusPath, model string) string {
	return corpusPath + ".vectors-" + unsafeName.ReplaceAllString(model, "_") + ".bin"
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// Doc is one document to embed: its ID and the text its vector stands for.
type Doc struct {
	ID, Text string
}

// Docs pages through a corpus's documents in ascending ID order: the n after ID after
// ("" for the first), fewer at the end.
type Docs interface {
	DocsAfter(ctx context.Context, after string, n int) ([]Doc, error)
}

// BuildOptions bound a build.
type BuildOptions struct {
	// Batch is how many documents go in one embeddings request (DefaultBatch if 0,
	// at most MaxBatch).
	Batch int
	// MaxChars cuts each document's text (DefaultMaxChars if 0), keeping a request
	// within the models' input limits.
	MaxChars int
}

// Bounds of a build's requests.
const (
	DefaultBatch    = 32
	MaxBatch        = 256
	DefaultMaxChars = 2000
)

// Open reads the index kept at path for model and corpus. A missing file, or one kept
// for another model or corpus, is an empty index.
func Open(path, model, corpus string) (*Index, error) {
	ix, _, err := read(path, model, corpus)
	return ix, err
}

// read loads the sidecar at path and returns the index and the offset where its whole
// records end (0 when the file must be started afresh).
func read(path, model, corpus string) (*Index, int64, error) {
	ix := &Index{Model: model, Corpus: corpus}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return ix, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	hm, hc, dim, n, err := readHeader(r)
	if err != nil || hm != model || hc != corpus {
		return ix, 0, nil // another model's, another corpus's or unreadable: start again
	}
	ix.Dim = dim
	end := n
	for {
		id, v, n, err := readRecord(r, dim)
		if err != nil {
			break // end of file, or a record cut short
		}
		ix.add(id, v)
		end += n
	}
	return ix, end, nil
}

func readHeader(r io.Reader) (model, corpus string, dim int, n int64, err error) {
	m := make([]byte, len(magic))
	if _, err = io.ReadFull(r, m); err != nil || string(m) != magic {
		return "", "", 0, 0, fmt.Errorf("not a vectors file")
	}
	if model, err = readString(r); err != nil {
		return
	}
	if corpus, err = readString(r); err != nil {
		return
	}
	var d uint32
	if err = binary.Read(r, binary.LittleEndian, &d); err != nil {
		return
	}
	return model, corpus, int(d), int64(len(magic) + 2 + len(model) + 2 + len(corpus) + 4), nil
}

func readString(r io.Reader) (string, error) {
	var n uint16
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
		return "", err
	}
	b := make([]byte, n)
	_, err := io.ReadFull(r, b)
	return string(b), err
}

func readRecord(r io.Reader, dim int) (string, []float32, int64, error) {
	id, err := readString(r)
	if err != nil {
		return "", nil, 0, err
	}
	v := make([]float32, dim)
	if err := binary.Read(r, binary.LittleEndian, v); err != nil {
		return "", nil, 0, err
	}
	return id, v, int64(2 + len(id) + 4*dim), nil
}

func writeString(w io.Writer, s string) error {
	if len(s) > math.MaxUint16 {
		return fmt.Errorf("name too long: %d bytes", len(s))
	}
	if err := binary.Write(w, binary.LittleEndian, uint16(len(s))); err != nil {
		return err
	}
	_, err := io.WriteString(w, s)
	return err
}

// Build brings the index at path up to date with docs: it embeds, in batches, the
// documents after the last one the file holds, appending each batch to the file (and
// syncing it) before the next, so that an interrupted build loses at most one batch and
// the next call resumes. The file is started afresh when it was kept for another model
// or corpus. It returns the index, complete, or the error that stopped it.
func Build(ctx context.Context, path, model, corpus string, docs Docs, emb Embedder, opts BuildOptions) (*Index, error) {
	batch := min(max(opts.Batch, 0), MaxBatch)
	if batch == 0 {
		batch = DefaultBatch
	}
	maxChars := opts.MaxChars
	if maxChars <= 0 {
		maxChars = DefaultMaxChars
	}
	ix, end, err := read(path, model, corpus)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := f.Truncate(end); err != nil { // drop a record cut short, or a stale file
		return nil, err
	}
	if _, err := f.Seek(end, io.SeekStart); err != nil {
		return nil, err
	}
	after := ""
	if n := len(ix.ids); n > 0 {
		after = ix.ids[n-1]
	}
	for {
		page, err := docs.DocsAfter(ctx, after, batch)
		if err != nil {
			return nil, fmt.Errorf("read documents after %q: %w", after, err)
		}
		if len(page) == 0 {
			return ix, nil
		}
		texts := make([]string, len(page))
		for i, d := range page {
			texts[i] = clip(d.Text, maxChars)
		}
		vecs, _, err := emb.Embed(ctx, texts)
		if err != nil {
			return nil, fmt.Errorf("embed documents after %q: %w", after, err)
		}
		if ix.Dim == 0 {
			ix.Dim = len(vecs[0])
			if err := writeHeader(f, model, corpus, ix.Dim); err != nil {
				return nil, err
			}
		}
		w := bufio.NewWriter(f)
		for i, d := range page {
			if len(vecs[i]) != ix.Dim {
				return nil, fmt.Errorf("embedding of %s has %d dimensions, want %d", d.ID, len(vecs[i]), ix.Dim)
			}
			if err := writeString(w, d.ID); err != nil {
				return nil, err
			}
			if err := binary.Write(w, binary.LittleEndian, vecs[i]); err != nil {
				return nil, err
			}
		}
		if err := w.Flush(); err != nil {
			return nil, err
		}
		if err := f.Sync(); err != nil {
			return nil, err
		}
		for i, d := range page {
			ix.add(d.ID, vecs[i])
		}
		after = page[len(page)-1].ID
	}
}

func writeHeader(w io.Writer, model, corpus string, dim int) error {
	if _, err := io.WriteString(w, magic); err != nil {
		return err
	}
	if err := writeString(w, model); err != nil {
		return err
	}
	if err := writeString(w, corpus); err != nil {
		return err
	}
	return binary.Write(w, binary.LittleEndian, uint32(dim))
}

// clip cuts s to at most n bytes, at a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

package corpus

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// Archive is the shipped corpus: ../shared/data/legal as a deterministic tar.gz
// (`make corpus-archive` rebuilds it). The provenance notes are also in data/provenance.
//
//go:embed data/legal.tar.gz
var Archive []byte

// files is the archive's contents by path below "legal/".
type files map[string][]byte

// readArchive unpacks a tar.gz of the legal folder into memory.
func readArchive(r io.Reader) (files, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("corpus archive: %w", err)
	}
	tr := tar.NewReader(gz)
	out := files{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("corpus archive: %w", err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		name, ok := strings.CutPrefix(path.Clean(h.Name), "legal/")
		if !ok {
			continue
		}
		var buf bytes.Buffer
		if _, err := io.Copy(&buf, tr); err != nil {
			return nil, fmt.Errorf("corpus archive: %s: %w", h.Name, err)
		}
		out[name] = buf.Bytes()
	}
}

// under returns the paths below dir, with the given suffix, in archive order.
func (f files) under(dir, suffix string) []string {
	var out []string
	for name := range f {
		if strings.HasPrefix(name, dir+"/") && strings.HasSuffix(name, suffix) {
			out = append(out, name)
		}
	}
	sortStrings(out)
	return out
}

// verify checks every file listed in the folders' SHA256SUMS, so that the texts are
// loaded exactly as shipped.
func (f files) verify() error {
	for name, sums := range f {
		if path.Base(name) != "SHA256SUMS" {
			continue
		}
		dir := path.Dir(name)
		for _, line := range strings.Split(strings.TrimSpace(string(sums)), "\n") {
			want, file, ok := strings.Cut(strings.TrimSpace(line), "  ")
			if !ok {
				continue
			}
			data, found := f[path.Join(dir, strings.TrimPrefix(file, "./"))]
			if !found {
				return fmt.Errorf("corpus: %s lists %s, which is missing", name, file)
			}
			got := sha256.Sum256(data)
			if hex.EncodeToString(got[:]) != want {
				return fmt.Errorf("corpus: %s/%s does not match its SHA256SUMS", dir, file)
			}
		}
	}
	return nil
}

package corpus

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/lexflow/lexflow/corpus/glossary"
	"github.com/lexflow/lexflow/corpus/plain"
)

// Source names, as counted in the sources table.
const (
	SourceGDPR         = "eu-gdpr-xml"
	SourceNormattiva   = "it-normattiva-codes"
	SourceCassazione   = "it-cassazione"
	SourceROCodes      = "ro-codes-legislatie"
	SourceRejust       = "ro-jurisprudenta-rejust"
	SourceCostituzione = "it-costituzione"
)

// Build loads the shipped archive into a new database at path and returns the rows of
// each source. The file at path is replaced only once the new one is complete.
func Build(ctx context.Context, path string) (Counts, error) {
	f, err := readArchive(bytes.NewReader(Archive))
	if err != nil {
		return nil, err
	}
	if err := f.verify(); err != nil {
		return nil, err
	}
	counts := Counts{}
	var arts []Article
	for _, src := range []struct {
		name string
		load func(files) ([]Article, error)
	}{{SourceGDPR, loadGDPR}, {SourceNormattiva, loadNormattiva}, {SourceCostituzione, loadCostituzione},
		{SourceROCodes, loadRomanianCodes}} {
		a, err := src.load(f)
		if err != nil {
			return nil, err
		}
		for i := range a {
			a[i].Source = src.name
		}
		counts[src.name] = SourceCount{Articles: len(a)}
		arts = append(arts, a...)
	}
	var decs []Decision
	for _, src := range []struct {
		name string
		load func(files) ([]Decision, error)
	}{{SourceCassazione, loadCassazione}, {SourceRejust, loadRejust}} {
		d, err := src.load(f)
		if err != nil {
			return nil, err
		}
		for i := range d {
			d[i].Source = src.name
		}
		counts[src.name] = SourceCount{Decisions: len(d)}
		decs = append(decs, d...)
	}
	if err := write(ctx, path, archiveSum(), arts, decs, counts); err != nil {
		return nil, fmt.Errorf("corpus: write %s: %w", path, err)
	}
	return counts, nil
}

// Ensure builds the database at path unless it exists and was built from the shipped
// archive. built reports whether it had to.
func Ensure(ctx context.Context, path string) (counts Counts, built bool, err error) {
	if counts, ok := current(ctx, path); ok {
		return counts, false, nil
	}
	counts, err = Build(ctx, path)
	return counts, err == nil, err
}

// current returns the counts of the database at path when it was built from the
// shipped archive; ok is false when it is missing, unreadable or from another archive.
func current(ctx context.Context, path string) (counts Counts, ok bool) {
	s, err := Open(path)
	if err != nil {
		return nil, false
	}
	defer s.Close()
	if s.archiveSum(ctx) != archiveSum() {
		return nil, false
	}
	counts, err = s.Counts(ctx)
	return counts, err == nil
}

// buildVersion names what the loaders write: raise it when they change, so that
// Ensure rebuilds databases an older binary built from the same archive. A change of
// the glossary or the plain words needs none: archiveSum holds their digests.
const buildVersion = "9"

// archiveSum is the checksum of the shipped archive, the schema, the build version and
// the data the analysed index is written from (the glossary, the plain words): a
// database carrying another was built by other code or from other data.
func archiveSum() string {
	h := sha256.New()
	h.Write([]byte(buildVersion + "\x00" + schema + analysedSchema() + learnedSchema + "\x00"))
	h.Write(glossary.Digest())
	h.Write(plain.Digest())
	h.Write(Archive)
	return hex.EncodeToString(h.Sum(nil))
}

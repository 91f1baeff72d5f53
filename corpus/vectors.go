package corpus

import (
	"context"

	"github.com/lexflow/lexflow/corpus/dense"
)

// DocsAfter pages through the corpus's articles in doc_id order, the n after doc_id
// after, each as the text its embedding stands for: the act's title, the article's
// heading and its text. dense.Build reads the corpus through it.
func (s *Store) DocsAfter(ctx context.Context, after string, n int) ([]dense.Doc, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT doc_id, act_title, title, text FROM legislatie
		WHERE doc_id > ? ORDER BY doc_id LIMIT ?`, after, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []dense.Doc
	for rows.Next() {
		var id, act, title, text string
		if err := rows.Scan(&id, &act, &title, &text); err != nil {
			return nil, err
		}
		out = append(out, dense.Doc{ID: id, Text: act + "\n" + title + "\n" + text})
	}
	return out, rows.Err()
}

// Fingerprint names the corpus's contents (the checksum of the archive it was built
// from): vectors computed from another corpus do not belong to this one.
func (s *Store) Fingerprint(ctx context.Context) string { return s.archiveSum(ctx) }

package firestore

import (
	"context"
	"fmt"
	"time"

	fs "cloud.google.com/go/firestore"

	"github.com/lexflow/lexflow/store"
)

// currentArticleData is one article's current text, under its doc_id.
type currentArticleData struct {
	DocID        string    `firestore:"doc_id"`
	ActID        string    `firestore:"act_id"`
	Text         string    `firestore:"text"`
	URL          string    `firestore:"url"`
	Source       string    `firestore:"source"`
	Consolidated bool      `firestore:"consolidated"`
	ReadAt       time.Time `firestore:"read_at"`
}

// maxTransactionWrites is the most writes one Firestore transaction takes.
const maxTransactionWrites = 500

// PutCurrentArticles sets each article's document, in transactions of at most
// maxTransactionWrites writes (the emulator runs transactions; it may not run the
// bulk writer).
func (s *Store) PutCurrentArticles(ctx context.Context, arts []store.CurrentArticle) error {
	if len(arts) > store.MaxCurrentArticles {
		return fmt.Errorf("put current articles: %d articles, more than %d", len(arts), store.MaxCurrentArticles)
	}
	for start := 0; start < len(arts); start += maxTransactionWrites {
		chunk := arts[start:min(start+maxTransactionWrites, len(arts))]
		err := s.client.RunTransaction(ctx, func(_ context.Context, tx *fs.Transaction) error {
			for _, a := range chunk {
				err := tx.Set(s.doc(CurrentArticlesCollection, a.DocID), currentArticleData{DocID: a.DocID, ActID: a.ActID, Text: a.Text,
					URL: a.URL, Source: a.Source, Consolidated: a.Consolidated, ReadAt: a.ReadAt.UTC()})
				if err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("put current articles: %w", err)
		}
	}
	return nil
}

// CurrentArticle reads one article's current text.
func (s *Store) CurrentArticle(ctx context.Context, docID string) (store.CurrentArticle, bool, error) {
	snap, err := s.doc(CurrentArticlesCollection, docID).Get(ctx)
	switch {
	case notFound(err):
		return store.CurrentArticle{}, false, nil
	case err != nil:
		return store.CurrentArticle{}, false, fmt.Errorf("read current article %s: %w", docID, err)
	}
	var d currentArticleData
	if err := snap.DataTo(&d); err != nil {
		return store.CurrentArticle{}, false, fmt.Errorf("decode current article %s: %w", docID, err)
	}
	return store.CurrentArticle{DocID: d.DocID, ActID: d.ActID, Text: d.Text, URL: d.URL, Source: d.Source,
		Consolidated: d.Consolidated, ReadAt: d.ReadAt}, true, nil
}

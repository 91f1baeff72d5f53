package mongostore

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/lexflow/lexflow/store"
)

// currentArticleDoc is one article's current text, under its doc_id.
type currentArticleDoc struct {
	DocID        string    `bson:"_id"`
	ActID        string    `bson:"act_id"`
	Text         string    `bson:"text"`
	URL          string    `bson:"url"`
	Source       string    `bson:"source"`
	Consolidated bool      `bson:"consolidated"`
	ReadAt       time.Time `bson:"read_at"`
}

// PutCurrentArticles replaces each article's document, in one unordered bulk write.
func (s *Store) PutCurrentArticles(ctx context.Context, arts []store.CurrentArticle) error {
	if len(arts) > store.MaxCurrentArticles {
		return fmt.Errorf("put current articles: %d articles, more than %d", len(arts), store.MaxCurrentArticles)
	}
	if len(arts) == 0 {
		return nil
	}
	models := make([]mongo.WriteModel, 0, len(arts))
	for _, a := range arts {
		d := currentArticleDoc{DocID: a.DocID, ActID: a.ActID, Text: a.Text, URL: a.URL, Source: a.Source,
			Consolidated: a.Consolidated, ReadAt: a.ReadAt.UTC()}
		models = append(models, mongo.NewReplaceOneModel().SetFilter(bson.M{"_id": a.DocID}).SetReplacement(d).SetUpsert(true))
	}
	if _, err := s.currentArticles.BulkWrite(ctx, models, options.BulkWrite().SetOrdered(false)); err != nil {
		return fmt.Errorf("put current articles: %w", err)
	}
	return nil
}

// CurrentArticle reads one article's current text.
func (s *Store) CurrentArticle(ctx context.Context, docID string) (store.CurrentArticle, bool, error) {
	var d currentArticleDoc
	err := s.currentArticles.FindOne(ctx, bson.M{"_id": docID}).Decode(&d)
	switch {
	case err == mongo.ErrNoDocuments:
		return store.CurrentArticle{}, false, nil
	case err != nil:
		return store.CurrentArticle{}, false, fmt.Errorf("read current article %s: %w", docID, err)
	}
	return store.CurrentArticle{DocID: d.DocID, ActID: d.ActID, Text: d.Text, URL: d.URL, Source: d.Source,
		Consolidated: d.Consolidated, ReadAt: d.ReadAt}, true, nil
}

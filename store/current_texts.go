package store

import (
	"context"
	"time"
)

// CurrentArticle is the text of one article of an act as an official service gave
// it, kept beside the shipped corpus (which stays a read-only file rebuilt from its
// archive): the research tools and the citation check read it before the corpus's.
// It holds law, nothing personal.
type CurrentArticle struct {
	// DocID is the corpus's doc_id of the article: "ro/legea-287-2009/art-1357".
	DocID string `json:"doc_id"`
	// ActID is the corpus's act: "ro/legea-287-2009".
	ActID string `json:"act_id"`
	Text  string `json:"text"`
	// URL is the act's page at the service.
	URL string `json:"url"`
	// Source names the service: "legislatie.just.ro".
	Source string `json:"source"`
	// Consolidated is true only when the service said its text is the consolidated
	// one; otherwise the text is as the service published it.
	Consolidated bool `json:"consolidated"`
	// ReadAt is when the service was read.
	ReadAt time.Time `json:"read_at"`
}

// MaxCurrentArticles bounds the articles one PutCurrentArticles call stores: the
// longest Romanian code has about 3,000.
const MaxCurrentArticles = 5000

// CurrentTexts keeps the current texts of articles.
type CurrentTexts interface {
	// PutCurrentArticles stores each article under its DocID, replacing what was
	// stored under it. At most MaxCurrentArticles at once.
	PutCurrentArticles(ctx context.Context, arts []CurrentArticle) error
	// CurrentArticle returns the article stored under docID, or ok false.
	CurrentArticle(ctx context.Context, docID string) (a CurrentArticle, ok bool, err error)
}

package devenv

import (
	"context"
	"log/slog"
)

// levelFilter drops records below a level before they reach the wrapped handler.
type levelFilter struct {
	slog.Handler
	min slog.Level
}

func (h levelFilter) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h levelFilter) WithAttrs(as []slog.Attr) slog.Handler {
	return levelFilter{h.Handler.WithAttrs(as), h.min}
}

func (h levelFilter) WithGroup(name string) slog.Handler {
	return levelFilter{h.Handler.WithGroup(name), h.min}
}

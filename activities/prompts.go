package activities

import (
	"context"
	"fmt"

	"go.temporal.io/sdk/activity"

	"github.com/lexflow/lexflow/internal/prompts"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// SystemPrompts assembles the models' system prompts from the worker's prompt library,
// first reloading it when an admin has reloaded the prompts since, in any process: the
// reload bumps the store's prompts version, which every model call reads.
type SystemPrompts struct {
	Library  *prompts.Library
	Versions store.PromptVersions
}

// System is the system prompt of a role, with the library at the store's version.
func (p *SystemPrompts) System(ctx context.Context, role schemas.ModelRole, c prompts.Context) (string, error) {
	v, err := p.Versions.PromptsVersion(ctx)
	if err != nil {
		return "", fmt.Errorf("read the prompts version: %w", err)
	}
	if err := p.Library.Follow(v); err != nil && activity.IsActivity(ctx) {
		activity.GetLogger(ctx).Warn("Prompt reload failed; the previous prompts stay", "Version", v, "Error", err)
	}
	return p.Library.System(role, c), nil
}

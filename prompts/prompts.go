// Package prompts holds the system prompt files that ship in the binary:
// <role>.<language>.md for each model role and language, tiers.<language>.md (the tier
// definitions tiering reads) and legal_tools_off.<language>.md (the warning given when
// every legal tool is off). Operators edit them here, or serve a copy of this directory
// with LEXFLOW_PROMPTS_DIR; package internal/prompts loads and assembles them.
package prompts

import "embed"

// Files are the prompt files, embedded.
//
//go:embed *.md
var Files embed.FS

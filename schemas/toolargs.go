package schemas

import (
	"encoding/json"
	"fmt"
)

// BoundedToolsUsed returns used with the arguments of each call over MaxToolArgsBytes
// (refused, never run) replaced by a JSON string saying how long they were: the
// transcript, the event log and the client's answer keep no arguments a tool could
// not take. used itself is not changed.
func BoundedToolsUsed(used []ToolUse) []ToolUse {
	out, copied := used, false
	for i, u := range used {
		if len(u.Args) <= MaxToolArgsBytes {
			continue
		}
		if !copied {
			out, copied = append([]ToolUse(nil), used...), true
		}
		stand, _ := json.Marshal(fmt.Sprintf("(arguments of %d bytes, over the limit of %d, not kept)", len(u.Args), MaxToolArgsBytes))
		out[i].Args = stand
	}
	return out
}

package offline

import "testing"

// TestAnswerChat: the offline chat model quotes each tool's first line by name, the
// admin's context too, and says so when no tool ran.
func TestAnswerChat(t *testing.T) {
	got := answerChat("Message: who?\n\nTool context:\n[web_search]\n\nFirst result\nsecond\n\n[tool_context]\nname | email\n", "en")
	if want := "From the tools:\n- web_search: First result\n- tool_context: name | email"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := answerChat("Message: ciao\n", "it"); got != chatPhrases["it"].none {
		t.Errorf("no tools: %q", got)
	}
}

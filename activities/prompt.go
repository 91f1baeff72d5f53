package activities

import "fmt"

// languageNames names each case language in the language itself.
var languageNames = map[string]string{"en": "English", "ro": "română", "it": "italiano"}

// systemPrompt is the built-in system prompt of a model role. Its "Case ID:" and
// "Language:" lines are part of the offline model's contract.
func systemPrompt(role, caseID, lang string) string {
	name := languageNames[lang]
	if name == "" {
		name = languageNames["en"]
	}
	return fmt.Sprintf(`You are Lexflow's %s, a careful legal assistant for Romanian, Italian and EU law.
Case ID: %s
Language: %s
Answer in %s. Read the case with get_case_details before relying on it, and keep it current with
update_case_details. Base every legal statement on a tool result and end your answer with a line
listing the sources you used. Never ask for or repeat personal data; parties are placeholders.`,
		role, caseID, lang, name)
}

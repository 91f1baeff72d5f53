package offline

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/lexflow/lexflow/corpus"
)

var (
	// documentRe is a question about the client's documents: "document: …",
	// "documentul: …", "documento: …".
	documentRe = regexp.MustCompile(`(?is)^\s*(?:document|documentul|documento)\s*:\s*(.+?)\s*$`)
	// listedRe is a readable document's line in list_documents' text.
	listedRe = regexp.MustCompile(`(?m)^- (d[0-9a-f]{32}) «[^»\n]*» \([a-z]+, read`)
	// readHeadRe is the first line of read_document's text.
	readHeadRe = regexp.MustCompile(`^Document d[0-9a-f]{32} «([^»\n]*)»`)
	// pageRe starts a page in read_document's text.
	pageRe = regexp.MustCompile(`(?m)^--- page (\d+) ---$`)
	// placeholderRe is a placeholder or a marker of pseudonymized text.
	placeholderRe = regexp.MustCompile(`\{\{[a-z0-9_]+\.[A-Za-z_]+(?:\.\d+)?\}\}`)
	// summaryHeadRe are the lines the document role's message starts with.
	summaryHeadRe = regexp.MustCompile(`(?m)^Document: (.*)\nPages: (\d+)$`)
)

// documentWording holds the offline model's document phrases in one language.
type documentWording struct {
	none, unread, quote, noMatch, summary, pages, names string
}

var documentPhrases = map[string]documentWording{
	"en": {none: "The client has uploaded no document I can read yet.", unread: "No document of this case can be read yet.",
		quote: "From «%s», page %d: «%s»", noMatch: "«%s» does not seem to answer this; its first lines read: «%s»",
		summary: "%s (%d %s): %s", pages: "pages", names: "Named in it:"},
	"ro": {none: "Clientul nu a încărcat încă niciun document pe care să-l pot citi.", unread: "Niciun document al cazului nu poate fi citit încă.",
		quote: "Din «%s», pagina %d: «%s»", noMatch: "«%s» nu pare să răspundă la întrebare; primele rânduri: «%s»",
		summary: "%s (%d %s): %s", pages: "pagini", names: "Menționați:"},
	"it": {none: "Il cliente non ha ancora caricato alcun documento leggibile.", unread: "Nessun documento della pratica è ancora leggibile.",
		quote: "Da «%s», pagina %d: «%s»", noMatch: "«%s» non sembra rispondere; le prime righe dicono: «%s»",
		summary: "%s (%d %s): %s", pages: "pagine", names: "Vi sono nominati:"},
}

// documentWords returns the document phrases of lang, English when it has none.
func documentWords(lang string) documentWording {
	if w, ok := documentPhrases[lang]; ok {
		return w
	}
	return documentPhrases["en"]
}

// maxDocumentsRead bounds the documents the document rule reads at once.
const maxDocumentsRead = 3

// documentStep is the document rule's next step, once the turn has tool results: after
// list_documents it reads the newest documents read (at most maxDocumentsRead, in
// one step), after read_document it answers with the line of their text that shares
// most words with the question. It reports false for any other turn.
func documentStep(user, lang string, results []toolResult, call func(string, map[string]any) reply) (reply, bool) {
	m := documentRe.FindStringSubmatch(user)
	if m == nil {
		return reply{}, false
	}
	last := results[len(results)-1]
	w := documentWords(lang)
	switch last.name {
	case "list_documents":
		ids := listedRe.FindAllStringSubmatch(last.content, -1)
		if len(ids) == 0 {
			return reply{content: w.none}, true
		}
		var r reply
		for _, id := range ids[max(0, len(ids)-maxDocumentsRead):] {
			r.calls = append(r.calls, call("read_document", map[string]any{"document_id": id[1]}).calls...)
		}
		return r, true
	case "read_document":
		var texts []string
		for _, res := range results {
			if res.name == "read_document" {
				texts = append(texts, res.content)
			}
		}
		return reply{content: quoteAnswer(m[1], texts, w)}, true
	}
	return reply{}, false
}

// quoteAnswer quotes the line of read_document's texts that shares most words with
// the question, placeholders and all, or the first document's first line if none
// does.
func quoteAnswer(question string, texts []string, w documentWording) string {
	asked := map[string]bool{}
	for _, word := range words(question) {
		asked[word] = true
	}
	best, bestTitle, bestPage, bestScore := "", "", 0, 0
	first, firstTitle := "", ""
	for _, text := range texts {
		head := readHeadRe.FindStringSubmatch(text)
		if head == nil {
			continue
		}
		page := 0
		for _, line := range strings.Split(text, "\n") {
			if p := pageRe.FindStringSubmatch(line); p != nil {
				page, _ = strconv.Atoi(p[1])
				continue
			}
			line = strings.TrimSpace(line)
			if page == 0 || line == "" {
				continue
			}
			if first == "" {
				first, firstTitle = line, head[1]
			}
			score := 0
			for _, word := range slices.Compact(slices.Sorted(slices.Values(words(line)))) {
				if asked[word] {
					score++
				}
			}
			if score > bestScore {
				best, bestTitle, bestPage, bestScore = line, head[1], page, score
			}
		}
	}
	switch {
	case bestScore > 0:
		return fmt.Sprintf(w.quote, bestTitle, bestPage, clip(best, 500))
	case first != "":
		return fmt.Sprintf(w.noMatch, firstTitle, clip(first, 300))
	}
	return w.unread
}

// words are a text's folded words of three letters or more, stop words left out.
func words(s string) []string {
	var out []string
	for _, word := range strings.FieldsFunc(corpus.Fold(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len([]rune(word)) >= 3 && !slices.Contains(stopWords, word) {
			out = append(out, word)
		}
	}
	return out
}

// summarizeDocument is the offline document role: the document's title and page
// count, its first lines, and the placeholders and markers it holds, which is all a
// model without language can tell of it.
func summarizeDocument(user, lang string) string {
	w := documentWords(lang)
	head := summaryHeadRe.FindStringSubmatch(user)
	if head == nil {
		return ""
	}
	pages, _ := strconv.Atoi(head[2])
	body := user[strings.Index(user, head[0])+len(head[0]):]
	var lines []string
	for _, line := range strings.Split(body, "\n") {
		if line = strings.TrimSpace(line); line != "" && !pageRe.MatchString(line) {
			lines = append(lines, line)
		}
		if len(lines) == 3 {
			break
		}
	}
	text := fmt.Sprintf(w.summary, head[1], pages, w.pages, clip(strings.Join(lines, " "), 300))
	var named []string
	for _, p := range placeholderRe.FindAllString(body, -1) {
		if !slices.Contains(named, p) && len(named) < 8 {
			named = append(named, p)
		}
	}
	if len(named) > 0 {
		text += " " + w.names + " " + strings.Join(named, ", ") + "."
	}
	return text
}

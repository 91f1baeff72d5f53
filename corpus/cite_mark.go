package corpus

import (
	"slices"
	"strings"
)

// statusLabels name the statuses a reader must see, per language.
var statusLabels = map[string]map[string]string{
	"en": {StatusNotFound: "not found", StatusMisquoted: "misquoted", StatusRepealed: "repealed", StatusUnknownSource: "not checked"},
	"it": {StatusNotFound: "non trovato", StatusMisquoted: "citazione inesatta", StatusRepealed: "abrogato", StatusUnknownSource: "non verificato"},
	"ro": {StatusNotFound: "negăsit", StatusMisquoted: "citat inexact", StatusRepealed: "abrogat", StatusUnknownSource: "neverificat"},
}

// notCheckedLines introduce the citations the corpus cannot check, per language.
var notCheckedLines = map[string]string{
	"en": "Not checked (the source is not in Lexflow's corpus, which does not make it wrong): ",
	"it": "Non verificate (la fonte non è nel corpus di Lexflow, il che non le rende errate): ",
	"ro": "Neverificate (sursa nu este în corpusul Lexflow, ceea ce nu înseamnă că sunt greșite): ",
}

// StatusLabel names a status in lang (English when lang is not one of Lexflow's).
func StatusLabel(status, lang string) string {
	labels, ok := statusLabels[lang]
	if !ok {
		labels = statusLabels["en"]
	}
	return labels[status]
}

// Mark writes, after every citation of text that is not_found, misquoted or
// repealed, its status in lang ("art. 9999 c.c. [non trovato]"), naming the article
// when the citation lists several; and it ends the text with the citations the corpus
// cannot check, so that none passes silently.
func Mark(text string, cits []Citation, lang string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(cits); {
		j := i
		for j < len(cits) && cits[j].Start == cits[i].Start {
			j++
		}
		span := cits[i:j]
		var labels []string
		for _, c := range span {
			if c.Status == StatusVerified || c.Status == StatusUnknownSource {
				continue
			}
			label := StatusLabel(c.Status, lang)
			if len(span) > 1 {
				label = "art. " + c.Article + ": " + label
			}
			labels = append(labels, label)
		}
		if len(labels) > 0 && span[0].Start >= last {
			end := span[0].Start + len(strings.TrimRight(text[span[0].Start:span[0].End], " "))
			b.WriteString(text[last:end])
			b.WriteString(" [" + strings.Join(labels, "; ") + "]")
			last = end
		}
		i = j
	}
	b.WriteString(text[last:])
	var unchecked []string
	for _, c := range cits {
		if c.Status == StatusUnknownSource && !slices.Contains(unchecked, c.Text) {
			unchecked = append(unchecked, c.Text)
		}
	}
	if len(unchecked) > 0 {
		line, ok := notCheckedLines[lang]
		if !ok {
			line = notCheckedLines["en"]
		}
		b.WriteString("\n\n" + line + strings.TrimSuffix(strings.Join(unchecked, "; "), ".") + ".")
	}
	return b.String()
}

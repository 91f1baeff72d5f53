package corpus

import (
	"strings"
	"unicode/utf8"
)

// Pages cuts text into pages of at most size characters, each ending, where one is
// near, at a paragraph's or a line's end, else at a space, else between characters. The
// same text always gives the same pages; an empty text is one empty page.
func Pages(text string, size int) []string {
	if size <= 0 {
		size = 1
	}
	var out []string
	for utf8.RuneCountInString(text) > size {
		cut := byteOfRune(text, size)
		head := text[:cut]
		switch {
		case strings.LastIndex(head, "\n\n") >= cut*3/5:
			cut = strings.LastIndex(head, "\n\n") + 2
		case strings.LastIndexByte(head, '\n') >= cut*3/5:
			cut = strings.LastIndexByte(head, '\n') + 1
		case strings.LastIndexByte(head, ' ') >= cut*3/5:
			cut = strings.LastIndexByte(head, ' ') + 1
		}
		out = append(out, strings.TrimRight(text[:cut], " \n"))
		text = text[cut:]
	}
	return append(out, text)
}

// byteOfRune returns the byte offset of text's n-th rune.
func byteOfRune(text string, n int) int {
	i := 0
	for b := range text {
		if i == n {
			return b
		}
		i++
	}
	return len(text)
}

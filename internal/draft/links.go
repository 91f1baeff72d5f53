package draft

import (
	"net/url"
	"strings"
)

// linkTarget returns dest if a draft's PDF may link to it, else "": only absolute
// http and https URLs with a host, and mailto addresses. A draft's Markdown comes from
// the model, which may have copied it from a page it read, and a PDF reader follows
// a link's URI action as it is, so javascript:, file:, data: and relative targets are
// printed as plain text, without a link.
func linkTarget(dest string) string {
	u, err := url.Parse(dest)
	if err != nil {
		return ""
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		if u.Host == "" {
			return ""
		}
	case "mailto":
		if u.Opaque == "" {
			return ""
		}
	default:
		return ""
	}
	return dest
}

package portal

import "regexp"

// fileNumber is a court file's number as the portal writes it: the file's number, the
// court's numeric code and the year of registration ("1234/3/2024"), then optionally
// an attached file ("/a1", "/a1.2") and the stars the portal marks a file's later
// stages with ("1234/3/2024*").
var fileNumber = regexp.MustCompile(`^[1-9][0-9]{0,6}/[1-9][0-9]{0,3}/(19|20)[0-9]{2}(/a[1-9][0-9]{0,2}(\.[1-9][0-9]{0,2})?)?\*{0,3}$`)

// MaxNumberLen bounds a file number's length; every valid one is shorter.
const MaxNumberLen = 32

// ValidNumber reports whether s is written as a court file's number.
func ValidNumber(s string) bool { return len(s) <= MaxNumberLen && fileNumber.MatchString(s) }

package pii

import (
	"math/big"
	"strings"
)

// validCNP checks a Romanian personal numeric code: its month and day, and its last
// digit against the weights 279146358279.
func validCNP(s string) bool {
	if len(s) != 13 {
		return false
	}
	month, day := int(s[3]-'0')*10+int(s[4]-'0'), int(s[5]-'0')*10+int(s[6]-'0')
	if month < 1 || month > 12 || day < 1 || day > 31 {
		return false
	}
	const weights = "279146358279"
	sum := 0
	for i := range 12 {
		sum += int(s[i]-'0') * int(weights[i]-'0')
	}
	check := sum % 11
	if check == 10 {
		check = 1
	}
	return int(s[12]-'0') == check
}

// validIBAN checks an IBAN's mod-97 check digits (ISO 13616), spaces ignored.
func validIBAN(s string) bool {
	s = strings.ToUpper(strings.ReplaceAll(s, " ", ""))
	if len(s) < 15 || len(s) > 34 {
		return false
	}
	var digits strings.Builder
	for _, r := range s[4:] + s[:4] {
		switch {
		case r >= '0' && r <= '9':
			digits.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			digits.WriteString(big.NewInt(int64(r - 'A' + 10)).String())
		default:
			return false
		}
	}
	n, ok := new(big.Int).SetString(digits.String(), 10)
	return ok && new(big.Int).Mod(n, big.NewInt(97)).Int64() == 1
}

// Values of a codice fiscale's characters at odd positions (1st, 3rd, ...) for its
// check letter; even positions count digits as their value and letters from A = 0.
var oddValues = [36]int{
	// 0-9
	1, 0, 5, 7, 9, 13, 15, 17, 19, 21,
	// A-Z
	1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23,
}

// validCodiceFiscale checks an Italian tax code's last letter.
func validCodiceFiscale(s string) bool {
	s = strings.ToUpper(s)
	if len(s) != 16 {
		return false
	}
	sum := 0
	for i := range 15 {
		c := s[i]
		idx, even := 0, 0
		switch {
		case c >= '0' && c <= '9':
			idx, even = int(c-'0'), int(c-'0')
		case c >= 'A' && c <= 'Z':
			idx, even = int(c-'A')+10, int(c-'A')
		default:
			return false
		}
		if i%2 == 0 {
			sum += oddValues[idx]
		} else {
			sum += even
		}
	}
	return s[15] == byte('A'+sum%26)
}

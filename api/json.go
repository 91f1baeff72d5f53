package api

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/labstack/echo/v4"
)

// maxIdempotencyKey bounds an Idempotency-Key header, in bytes.
const maxIdempotencyKey = 255

// idempotencyKey is the request's Idempotency-Key header, "" when there is none. A key
// longer than maxIdempotencyKey or holding anything but printable ASCII is invalid
// input: it becomes an ID that Temporal and the store keep.
func idempotencyKey(c echo.Context) (string, error) {
	key := c.Request().Header.Get("Idempotency-Key")
	if len(key) > maxIdempotencyKey || strings.ContainsFunc(key, func(r rune) bool { return r < ' ' || r > '~' }) {
		return "", problemf(errInvalidInput, fmt.Sprintf("Idempotency-Key must be at most %d printable ASCII characters", maxIdempotencyKey))
	}
	return key, nil
}

// bindJSON decodes a JSON object body; trailing data is an error, unknown fields are
// ignored so that newer clients keep working. A value of the wrong type is told by its
// field and kind, never quoted: the decoder's own message would echo a number of any
// length back.
func bindJSON(c echo.Context, v any) error {
	dec := json.NewDecoder(c.Request().Body)
	if err := dec.Decode(v); err != nil {
		var wrongType *json.UnmarshalTypeError
		if errors.As(err, &wrongType) {
			kind, _, _ := strings.Cut(wrongType.Value, " ")
			return problemf(errBadJSON, fmt.Sprintf("%s: a JSON %s does not fit a Go %s", cmp.Or(wrongType.Field, "the body"), kind, wrongType.Type))
		}
		return problemf(errBadJSON, err.Error())
	}
	if dec.More() {
		return problemf(errBadJSON, "body has data after the JSON object")
	}
	return nil
}

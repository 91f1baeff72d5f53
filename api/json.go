package api

import (
	"encoding/json"

	"github.com/labstack/echo/v4"
)

// bindJSON decodes a JSON object body; trailing data is an error, unknown fields are
// ignored so that newer clients keep working.
func bindJSON(c echo.Context, v any) error {
	dec := json.NewDecoder(c.Request().Body)
	if err := dec.Decode(v); err != nil {
		return problemf(errBadJSON, err.Error())
	}
	if dec.More() {
		return problemf(errBadJSON, "body has data after the JSON object")
	}
	return nil
}

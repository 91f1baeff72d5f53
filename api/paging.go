package api

import (
	"fmt"
	"strconv"

	"github.com/labstack/echo/v4"
)

// pageLimit is the request's ?limit=: def when it is absent, an invalid-input problem
// unless it is a number from 1 to max.
func pageLimit(c echo.Context, def, max int) (int, error) {
	s := c.QueryParam("limit")
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > max {
		return 0, problemf(errInvalidInput, fmt.Sprintf("limit is 1 to %d", max))
	}
	return n, nil
}

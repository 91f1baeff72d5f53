package activities

import (
	"context"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// ReadMornings is when the morning reminder of a deadline's last day reaches each
// recipient: 08:00 of that day in the time zone of their notification settings, or
// in the court's zone for one who set none (or set one this binary no longer knows).
// A day or a court's zone that does not parse, or too many recipients, is bad input.
func (a *Notifications) ReadMornings(ctx context.Context, in schemas.ReadMornings) (schemas.Mornings, error) {
	day, err := time.Parse(time.DateOnly, in.Due)
	if err != nil {
		return schemas.Mornings{}, temporal.NewNonRetryableApplicationError("the last day is no YYYY-MM-DD date", schemas.ErrInvalidArgs, err)
	}
	court, err := time.LoadLocation(in.Zone)
	if err != nil || in.Zone == "" {
		return schemas.Mornings{}, temporal.NewNonRetryableApplicationError("the court's zone is no IANA zone", schemas.ErrInvalidArgs, err)
	}
	if len(in.Owners) > schemas.MaxMorningOwners {
		return schemas.Mornings{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("at most %d recipients", schemas.MaxMorningOwners), schemas.ErrInvalidArgs, nil)
	}
	out := schemas.Mornings{Mornings: make([]schemas.Morning, 0, len(in.Owners))}
	for _, owner := range in.Owners {
		settings, err := store.SettingsOrDefaults(ctx, a.Store, owner)
		if err != nil {
			return schemas.Mornings{}, err
		}
		loc := court
		if settings.TimeZone != "" {
			if own, err := time.LoadLocation(settings.TimeZone); err == nil {
				loc = own
			}
		}
		out.Mornings = append(out.Mornings, schemas.Morning{Owner: owner, Zone: loc.String(),
			At: time.Date(day.Year(), day.Month(), day.Day(), schemas.MorningHour, 0, 0, 0, loc)})
	}
	return out, nil
}

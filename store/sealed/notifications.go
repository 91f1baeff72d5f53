package sealed

import (
	"context"
	"fmt"

	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/store"
)

// GetNotificationSettings opens a user's e-mail addresses, sealed under the user's
// own key like their memory.
func (s *Store) GetNotificationSettings(ctx context.Context, owner string) (store.NotificationSettings, error) {
	ns, err := s.Store.GetNotificationSettings(ctx, owner)
	if err != nil {
		return ns, err
	}
	if err := openSettings(s.opener(ctx, keys.UserKeyID(owner)), &ns); err != nil {
		return store.NotificationSettings{}, err
	}
	return ns, nil
}

// UpdateNotificationSettings lets change see the settings opened, and stores what it
// made of them sealed.
func (s *Store) UpdateNotificationSettings(ctx context.Context, owner string, change func(*store.NotificationSettings) error) (store.NotificationSettings, error) {
	k, err := s.Keys.Ensure(ctx, keys.UserKeyID(owner))
	if err != nil {
		return store.NotificationSettings{}, err
	}
	var opened store.NotificationSettings
	stored, err := s.Store.UpdateNotificationSettings(ctx, owner, func(ns *store.NotificationSettings) error {
		if err := openSettings(openerOf(k), ns); err != nil {
			return err
		}
		if err := change(ns); err != nil {
			return err
		}
		opened = *ns
		ns.Email = sealString(k, ns.Email)
		if ns.Pending != nil {
			p := *ns.Pending
			p.Address = sealString(k, p.Address)
			ns.Pending = &p
		}
		return nil
	})
	if err != nil {
		return store.NotificationSettings{}, err
	}
	opened.Version, opened.UpdatedAt = stored.Version, stored.UpdatedAt
	return opened, nil
}

// openSettings opens the addresses of ns in place.
func openSettings(o *opener, ns *store.NotificationSettings) error {
	var err error
	if ns.Email, err = openString(o, ns.Email); err != nil {
		return fmt.Errorf("e-mail address of %s: %w", ns.Owner, err)
	}
	if ns.Pending != nil {
		p := *ns.Pending
		if p.Address, err = openString(o, p.Address); err != nil {
			return fmt.Errorf("pending e-mail address of %s: %w", ns.Owner, err)
		}
		ns.Pending = &p
	}
	return nil
}

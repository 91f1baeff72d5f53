package api

import (
	"fmt"
	"sync"

	"github.com/lexflow/lexflow/schemas"
)

// Upload slots: MaxUploads bounds the uploads one API process reads at once (each up
// to MaxUploadBytes in memory, then a pdfinfo run), and TenantUploads is each tenant's
// share of them, so that a tenant sending its bodies slowly holds its own share and
// no more: the other tenants' uploads go on.
const (
	MaxUploads    = 8
	TenantUploads = 2
)

// uploadSlots are the places of the uploads an API process is reading, in all and by
// tenant (a schemas.TenantKey: an organization, or a user without one).
type uploadSlots struct {
	mu       sync.Mutex
	total    int
	byTenant map[string]int
}

// take holds a place for an upload of the caller's tenant, or answers 429 when the
// tenant holds its share or the process reads MaxUploads already; release gives the
// place back.
func (s *uploadSlots) take(org, subject string) (release func(), err error) {
	tenant := schemas.TenantKey(org, subject)
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.byTenant[tenant] >= TenantUploads:
		whose := "you are"
		if org != "" {
			whose = "your organization is"
		}
		return nil, tooMany(fmt.Sprintf("%s sending %d uploads to this server already, the most one tenant may; send this one when one is done", whose, TenantUploads), uploadRetryAfter)
	case s.total >= MaxUploads:
		return nil, tooMany(fmt.Sprintf("this server is taking %d uploads already; send this one again in a moment", MaxUploads), uploadRetryAfter)
	}
	if s.byTenant == nil {
		s.byTenant = map[string]int{}
	}
	s.total++
	s.byTenant[tenant]++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.total--
		if s.byTenant[tenant]--; s.byTenant[tenant] == 0 {
			delete(s.byTenant, tenant)
		}
	}, nil
}

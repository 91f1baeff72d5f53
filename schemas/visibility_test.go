package schemas

import "testing"

// TestTenantClauseQuotes: a tenant's name cannot end the query's string and add
// conditions of its own, with a quote or with a backslash.
func TestTenantClauseQuotes(t *testing.T) {
	for _, c := range []struct{ org, subject, want string }{
		{"acme", "", `(Tenant = 'org:acme' OR (Tenant IS NULL AND TenantID = 'acme'))`},
		{"", "ana", `(Tenant = 'user:ana' OR (Tenant IS NULL AND TenantID = 'ana'))`},
		{"x' OR TenantID != '", "", `(Tenant = 'org:x'' OR TenantID != ''' OR (Tenant IS NULL AND TenantID = 'x'' OR TenantID != '''))`},
		{`x\`, "", `(Tenant = 'org:x\\' OR (Tenant IS NULL AND TenantID = 'x\\'))`},
	} {
		if got := TenantClause(c.org, c.subject); got != c.want {
			t.Errorf("TenantClause(%q, %q) = %s, want %s", c.org, c.subject, got, c.want)
		}
	}
}

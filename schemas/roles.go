package schemas

// Roles a bearer token may carry: what its holder may do. Model roles (ModelRole) and
// transcript record roles (RecordRole) are other things, with their own types.
const (
	// RoleUser is a client: their own cases only.
	RoleUser = "user"
	// RoleAdmin runs admin tools and routes (legal_sql, subscriptions, prompt reloads).
	RoleAdmin = "admin"
	// RoleSupport works the support queue: paused, waiting and stuck cases.
	RoleSupport = "support"
	// RoleBilling is billing staff's. No route needs it yet: the payments flow (the
	// trust issue) adds the offline-payment route it guards.
	RoleBilling = "billing"
)

// TokenRoles are every role a token may carry.
var TokenRoles = []string{RoleUser, RoleAdmin, RoleSupport, RoleBilling}

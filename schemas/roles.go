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
)

// TokenRoles are every role a token may carry.
var TokenRoles = []string{RoleUser, RoleAdmin, RoleSupport}

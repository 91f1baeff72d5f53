package cluster_test

import (
	"github.com/lexflow/lexflow/internal/testenv"
)

// The OpenID Provider's clients of the client-credentials grant, and the Temporal
// permissions their tokens carry (namespace:role, as the server's default claim
// mapper reads them): Lexflow's API and worker and the operator's staff may write in
// the namespace; a firm's support staff and a client with no permissions may do
// nothing in Temporal.
var (
	apiClient      = testenv.OIDCServiceClient{ID: "lexflow-api", Secret: "lexflow-api-secret", Claims: writer}
	workerClient   = testenv.OIDCServiceClient{ID: "lexflow-worker", Secret: "lexflow-worker-secret", Claims: writer}
	operatorClient = testenv.OIDCServiceClient{ID: "operator-staff", Secret: "operator-staff-secret",
		Claims: map[string]any{"roles": []string{"support"}, "permissions": []string{namespace + ":write"}}}
	firmStaffClient = testenv.OIDCServiceClient{ID: "firm-support", Secret: "firm-support-secret",
		Claims: map[string]any{"org": "acme", "roles": []string{"support", "admin"}}}
	bareClient = testenv.OIDCServiceClient{ID: "no-permissions", Secret: "no-permissions-secret"}

	oidcClients = []testenv.OIDCServiceClient{apiClient, workerClient, operatorClient, firmStaffClient, bareClient}
)

// writer is the claims of a client that may write in the cluster's namespace.
var writer = map[string]any{"permissions": []string{namespace + ":write"}}

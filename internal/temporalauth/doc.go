// Package temporalauth lets Lexflow's processes prove who they are to a Temporal
// frontend that asks: a client certificate for mutual TLS, and an OAuth access token,
// got by the client-credentials grant and renewed before it expires, which the
// server's JWT claim mapper and authorizer read (docs/deployment.md, "Temporal").
package temporalauth

// Package config reads Lexflow's settings from the environment, with defaults that run
// the whole product on one machine. It holds plain values and imports no other
// package of Lexflow but schemas: what needs a package's own parsing (the price
// table, a master key's secret) is parsed by the code that builds that package's
// objects.
package config

import (
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lexflow/lexflow/schemas"
)

// Model is one model role's OpenAI-compatible chat-completions endpoint. An empty
// BaseURL means the built-in offline model.
type Model struct {
	BaseURL string
	Model   string
	APIKey  string
	// Provider names the kind of endpoint (openai, azure, gemini, ...), which llm
	// parses; empty means guessed from BaseURL. APIVersion is Azure's api-version.
	Provider   string
	APIVersion string
}

// Offline reports whether no endpoint is configured, so the offline model stands in.
func (m Model) Offline() bool { return m.BaseURL == "" }

// Config holds every setting of every Lexflow process.
type Config struct {
	DataDir  string
	HTTPAddr string

	TemporalAddress   string
	TemporalNamespace string
	TaskQueue         string
	TemporalUIPort    int
	TemporalCLI       string
	// TemporalUIServer is the Temporal UI server `lexflow dev` serves the Web UI with.
	TemporalUIServer string
	// WorkerHTTPAddr, when set, is where `lexflow worker` serves its /healthz, /readyz and /metrics.
	WorkerHTTPAddr string
	// MetricsAddr, when set, is where the API serves /metrics.
	MetricsAddr string
	// OTLPEndpoint, when set, is where traces go; ServiceName names the process in them.
	OTLPEndpoint string
	ServiceName  string
	// WorkerDeployment, when set, is the Worker Deployment that workers join with build
	// BuildID (see worker.Version).
	WorkerDeployment string
	BuildID          string
	// TemporalUIURL is the Temporal Web UI that support's case page links to.
	TemporalUIURL string
	// TemporalAuth is how a process proves itself to a Temporal frontend that asks
	// for it: a client certificate and an OAuth access token.
	TemporalAuth TemporalAuth

	// Store is the database: StoreMongoDB or StoreFirestore.
	Store         string
	MongoURI      string
	MongoDatabase string
	DevMongoAddr  string
	// FirestoreProject is the Google Cloud project whose Firestore holds the data;
	// FirestoreEmulatorHost, when set, an emulator to use instead; DevFirestoreAddr
	// where `lexflow dev` starts one when none is set.
	FirestoreProject      string
	FirestoreEmulatorHost string
	DevFirestoreAddr      string

	JWTSecret string
	JWTIssuer string
	// MasterKey wraps every data key; MasterKeyPrevious are retired master keys that
	// still unwrap the data keys they wrapped until a rotation rewraps them. Their
	// secrets are checked by keys.NewLocal.
	MasterKey         string
	MasterKeyPrevious []string
	// CompressPayloads deflates large Temporal payloads before they are encrypted.
	CompressPayloads bool
	// KeyCacheTTL is how long a process keeps an unwrapped data key in memory; an
	// erasure waits that long after destroying a case's key, so that no process
	// still holds it when the erasure is reported done.
	KeyCacheTTL time.Duration
	// Retention is how long each organization keeps its closed cases before they are
	// erased; an organization without an entry keeps them.
	Retention   map[string]time.Duration
	JWTAudience string
	// OIDCIssuer, when set, is an OpenID Provider whose RS256/ES256 tokens are accepted
	// beside the HS256 ones, with OIDCAudience as their aud, roles and organization
	// read from the claims OIDCRolesClaim and OIDCOrgClaim, and OIDCLeeway of clock skew.
	OIDCIssuer      string
	OIDCAudience    string
	OIDCRolesClaim  string
	OIDCOrgClaim    string
	OIDCOperatorOrg string
	OIDCLeeway      time.Duration
	// OIDCHS256 keeps HS256 tokens accepted beside the provider's.
	OIDCHS256 bool
	// OIDCClientID and OIDCScope are the web app's public client at the provider,
	// which signs people in by the authorization-code flow with PKCE.
	OIDCClientID string
	OIDCScope    string

	Assistant Model
	// AssistantContextTokens is the assistant model's context size, in tokens: each
	// tool's result and the earlier turns a model call reads are budgeted from it.
	AssistantContextTokens int
	Reasoner               Model
	// Embeddings, when its BaseURL is set, is the OpenAI-compatible /v1/embeddings
	// endpoint whose vectors join legislation_search's lexical ranking (dense
	// retrieval); without one, search is lexical only.
	Embeddings Model
	// SearchGlossary and SearchRewrite switch legislation search's glossary and
	// model-rewrite layers (the rewrite only with an assistant endpoint configured);
	// the glossary layer is kb_search's too.
	SearchGlossary bool
	SearchRewrite  bool
	// SearchLearned switches legislation search's ranking by the corpus's learned
	// model (corpus/learned).
	SearchLearned bool
	ModelTimeout  time.Duration
	// OfflineChunkDelay is the offline model's pause between streamed chunks.
	OfflineChunkDelay time.Duration
	// ModelRecord, when set, is where the worker records each model exchange;
	// ModelReplay, when set, where recordings answer them instead of the endpoints.
	ModelRecord string
	ModelReplay string

	MaxSteps     int
	PromptsDir   string
	CorpusDB     string
	SearXNGURL   string
	LexeToolsURL string
	// LegislatieURL is the Portal Legislativ's SOAP endpoint, whose current texts of
	// Romanian acts the worker keeps; empty: the shipped texts only.
	LegislatieURL string
	// PortalURL is the courts' portal query service that court files are linked
	// against and watched on; empty means court files cannot be linked.
	PortalURL string
	// PortalInterval is the least time between two calls to the portal from one
	// process; CourtWatchEvery how often the court watch polls every linked file.
	PortalInterval  time.Duration
	CourtWatchEvery time.Duration
	// Blob is where blobs (draft PDFs, documents, large tool results) are kept:
	// BlobDir, files under BlobDir, or BlobGCS, the Cloud Storage bucket BlobBucket,
	// reached at GCSEndpoint when that is set (an emulator, without credentials).
	Blob        string
	BlobDir     string
	BlobBucket  string
	GCSEndpoint string
	// UserWait is how long an escalated case waits for the client's answer.
	UserWait time.Duration
	// StuckAfter is how long a case may work without progress before support lists it
	// as stuck.
	StuckAfter time.Duration
	// DefaultLanguage is a case's language when the client chose none and its
	// description tells none (ro, it or en).
	DefaultLanguage string
	// TurnTimeout is a chat turn's deadline.
	TurnTimeout time.Duration
	// CasesPerDay bounds the cases one user opens in a UTC day, OrgCasesPerDay those of
	// one organization; 0 means no bound.
	CasesPerDay    int
	OrgCasesPerDay int
	// RequestsPerMinute bounds a user's requests to one API process,
	// OrgRequestsPerMinute an organization's; 0 means no bound.
	RequestsPerMinute    int
	OrgRequestsPerMinute int
	// ToolRunsPerMinute bounds the tools one admin runs directly through one API
	// process; 0 means no bound.
	ToolRunsPerMinute int
	// OrgConcurrentTurns bounds one organization's cases working on a turn at once.
	OrgConcurrentTurns int
	// MaxUploadMB bounds an uploaded document; DocumentsPerCase the documents a case
	// holds; OrgConcurrentReads an organization's documents being read at once.
	MaxUploadMB        int
	DocumentsPerCase   int
	OrgConcurrentReads int
	// CaseTokensPerDay and TokensPerDay are the default model-token budgets of a case
	// and of a tenant per UTC day; 0 means no budget.
	CaseTokensPerDay int64
	TokensPerDay     int64
	// EventsPoll is how often an event stream reads the store for events written by
	// another process.
	EventsPoll time.Duration
	// CORSOrigins are the origins whose pages may call /v1 from the browser.
	CORSOrigins []string
	// PublicURL is where clients reach Lexflow; the payment provider sends them back
	// there after a checkout.
	PublicURL string
	// Prices is a case's price by tier as LEXFLOW_PRICES writes it, which the API
	// reads with payments.ParsePrices. StripeKey is Stripe's secret key (empty: no
	// Stripe; `lexflow dev` uses its test-mode provider) and StripeAPI its API's base
	// URL. WebhookSecret verifies the provider's webhooks.
	Prices        string
	StripeKey     string
	StripeAPI     string
	WebhookSecret string
	// SMTP is the mail server notifications and e-mail verification codes go through;
	// its Addr is empty when there is none.
	SMTP SMTP
}

// SMTP is a mail server: its host:port, the sender address, the AUTH PLAIN
// credentials (none when User is empty) and the PEM file of the certificate
// authority its certificate is checked against (the system's roots when empty).
type SMTP struct {
	Addr, From     string
	User, Password string
	CA             string
}

// TemporalAuth is a process's credentials for the Temporal frontend. With Cert and
// Key it connects over mutual TLS, trusting CA (the system's roots when empty) for a
// server named ServerName (the address's host when empty); with TokenURL it sends an
// access token that it gets, and renews before it expires, from that OAuth token
// endpoint by the client-credentials grant, as ClientID with ClientSecret, asking for
// Scope, Audience (Auth0's parameter) and Resource (RFC 8707's), those that are set.
type TemporalAuth struct {
	CA, Cert, Key, ServerName string
	TokenURL, ClientID        string
	ClientSecret              string
	Scope, Audience, Resource string
}

// TLS reports whether the process connects to Temporal over TLS.
func (a TemporalAuth) TLS() bool { return a.Cert != "" || a.CA != "" || a.ServerName != "" }

// TokenLimits are the default model-token budgets, as the worker's meter and the API
// take them.
func (c Config) TokenLimits() schemas.TokenLimits {
	return schemas.TokenLimits{CaseTokensPerDay: c.CaseTokensPerDay, TokensPerDay: c.TokensPerDay}
}

// Vars lists every environment variable FromEnv reads, its default and its meaning.
// The table in docs/configuration.md is checked against it.
var Vars = []Var{
	{"LEXFLOW_DATA_DIR", "./data", "where dev state lives: Temporal's database, FerretDB's SQLite files, and the secrets `lexflow dev` generates"},
	{"LEXFLOW_HTTP_ADDR", "127.0.0.1:8080", "the API's listen address"},
	{"TEMPORAL_ADDRESS", "127.0.0.1:7233", "Temporal frontend; `lexflow dev` starts the dev server on this port"},
	{"TEMPORAL_NAMESPACE", "default", "Temporal namespace"},
	{"LEXFLOW_TASK_QUEUE", schemas.TaskQueue, "task queue the worker polls and the API starts cases on"},
	{"LEXFLOW_TEMPORAL_UI_PORT", "8233", "Web UI port of the dev server started by `lexflow dev`"},
	{"LEXFLOW_WORKER_HTTP_ADDR", "", "where `lexflow worker` serves `GET /healthz` (alive), `GET /readyz` (Temporal, the store and the corpus answer) and `GET /metrics`, e.g. `0.0.0.0:8081`; empty: nowhere"},
	{"LEXFLOW_METRICS_ADDR", "", "where `lexflow api` (and `lexflow dev`) serves `GET /metrics` in Prometheus's format, apart from the public API, e.g. `0.0.0.0:9090`; empty: nowhere (a worker serves its /metrics on LEXFLOW_WORKER_HTTP_ADDR)"},
	{"OTEL_EXPORTER_OTLP_ENDPOINT", "", "an OpenTelemetry collector's OTLP/HTTP endpoint (e.g. `http://otel-collector:4318`) that every process sends its traces to (the other `OTEL_EXPORTER_OTLP_*` variables apply too); empty: no traces"},
	{"OTEL_SERVICE_NAME", "", "the traces' service name; empty: `lexflow-api`, `lexflow-worker` or `lexflow-dev`"},
	{"LEXFLOW_WORKER_DEPLOYMENT", "", "the Temporal Worker Deployment that `lexflow worker` joins, e.g. `lexflow` (see \"Deploying new workflow code\"); empty: unversioned workers"},
	{"LEXFLOW_BUILD_ID", "", "the worker's build within the deployment; empty: the binary's VCS revision"},
	{"LEXFLOW_TEMPORAL_UI_URL", "", "the Temporal Web UI's base URL, which the web app's support pages link each case's workflow to; empty means none, except under `lexflow dev`, which links its own"},
	{"TEMPORAL_TLS_SERVER_CA_CERT_PATH", "", "PEM file of the certificate authority that signed the Temporal frontend's certificate; setting any `TEMPORAL_TLS_*` connects over TLS (as the Temporal CLI and SDKs' environment configuration name them); empty: the system's roots"},
	{"TEMPORAL_TLS_CLIENT_CERT_PATH", "", "PEM file of this process's client certificate for mutual TLS with the Temporal frontend, read again at each new connection (so a renewed one is taken up); with TEMPORAL_TLS_CLIENT_KEY_PATH"},
	{"TEMPORAL_TLS_CLIENT_KEY_PATH", "", "PEM file of the client certificate's private key"},
	{"TEMPORAL_TLS_SERVER_NAME", "", "the name the Temporal frontend's certificate must carry; empty: TEMPORAL_ADDRESS's host"},
	{"LEXFLOW_TEMPORAL_TOKEN_URL", "", "an OAuth token endpoint (e.g. https://lexflow.eu.auth0.com/oauth/token) from which the process gets, by the client-credentials grant, the access token it sends Temporal as `Authorization: Bearer`, renewed when a quarter of its lifetime (at most a minute) is left; the Temporal server's authorizer reads its `permissions` claim (docs/deployment.md, \"Temporal\"); empty: no token"},
	{"LEXFLOW_TEMPORAL_CLIENT_ID", "", "the process's client ID at LEXFLOW_TEMPORAL_TOKEN_URL; required with it"},
	{"LEXFLOW_TEMPORAL_CLIENT_SECRET", "", "the client's secret; required with LEXFLOW_TEMPORAL_TOKEN_URL"},
	{"LEXFLOW_TEMPORAL_TOKEN_SCOPE", "", "space-separated scopes to ask for with the Temporal token; empty: none"},
	{"LEXFLOW_TEMPORAL_TOKEN_AUDIENCE", "", "the Temporal token's audience, sent as `audience` (Auth0's parameter); it must be the Temporal server's `global.authorization.audience`; empty: not sent"},
	{"LEXFLOW_TEMPORAL_TOKEN_RESOURCE", "", "the Temporal token's resource indicator (RFC 8707), sent as `resource`, for providers that choose the audience by it; empty: not sent"},
	{"LEXFLOW_TEMPORAL_CLI", "./bin/temporal", "Temporal CLI used by `lexflow dev` and the tests (`make dev` installs it)"},
	{"LEXFLOW_TEMPORAL_UI_SERVER", "./bin/temporal-ui", "Temporal UI server that serves `lexflow dev`'s Web UI, sending the web app's codec session to the codec server (`make dev` installs it); when missing, the dev server's own UI, where staff tick \"Include cross-origin credentials\" in its codec settings"},
	{"LEXFLOW_STORE", StoreMongoDB, "the database: `mongodb` (MongoDB, or under `lexflow dev` the embedded FerretDB) or `firestore`"},
	{"MONGODB_URI", "", "MongoDB to use; empty means the embedded FerretDB that `lexflow dev` serves on LEXFLOW_DEV_MONGO_ADDR"},
	{"MONGODB_DATABASE", "lexflow", "database name"},
	{"LEXFLOW_DEV_MONGO_ADDR", "127.0.0.1:27017", "listen address of the embedded FerretDB"},
	{"FIRESTORE_PROJECT_ID", "", "with `LEXFLOW_STORE=firestore`: the Google Cloud project whose Firestore (default database) to use, with the application's default credentials; required, except under `lexflow dev`, which uses `lexflow-dev`; its composite indexes are in deploy/firestore/firestore.indexes.json"},
	{"FIRESTORE_EMULATOR_HOST", "", "with `LEXFLOW_STORE=firestore`: a Firestore emulator to use instead (host:port); empty under `lexflow dev` means the one it starts on LEXFLOW_DEV_FIRESTORE_ADDR"},
	{"LEXFLOW_DEV_FIRESTORE_ADDR", "127.0.0.1:8086", "where `lexflow dev` starts the Firestore emulator (@firestore-emulator/server, installed by `make npm`), which keeps its data in memory; it listens on 127.0.0.1 only, so only the port counts"},
	{"LEXFLOW_JWT_SECRET", "", "HS256 secret, at least 32 bytes, which signs `lexflow token`'s tokens and the codec sessions; required by `lexflow api`, which stops without it; empty under `lexflow dev` means one generated once into LEXFLOW_DATA_DIR/jwt-secret"},
	{"LEXFLOW_JWT_ISSUER", "lexflow-dev", "required `iss` claim"},
	{"LEXFLOW_MASTER_KEY", "", "the master key's secret (at least 32 characters, e.g. `openssl rand -hex 32`), which wraps every case's data key; every api and worker process needs the same one, and without it nothing encrypted can be read again: back it up apart from the database; required by `lexflow api`, `worker` and `keys`, which stop without it; empty under `lexflow dev` means one generated once into LEXFLOW_DATA_DIR/master-key"},
	{"LEXFLOW_MASTER_KEY_PREVIOUS", "", "comma-separated secrets of master keys retired by a rotation: they still unwrap the data keys they wrapped until `lexflow keys rotate` rewraps them under LEXFLOW_MASTER_KEY"},
	{"LEXFLOW_COMPRESS_PAYLOADS", "true", "deflate Temporal payloads of 512 bytes or more before encrypting them, when that makes them smaller"},
	{"LEXFLOW_KEY_CACHE_TTL", "1m", "how long a process keeps an unwrapped data key in memory (at most 1h); an erasure waits this long after destroying the case's key before it reports done, so every process must share it"},
	{"LEXFLOW_RETENTION", "", "how long organizations keep closed cases before the worker erases them, as `org=period` pairs (`acme=365d,firm-b=2160h`); none: cases are kept until deleted"},
	{"LEXFLOW_JWT_AUDIENCE", "lexflow", "required `aud` claim"},
	{"LEXFLOW_OIDC_ISSUER", "", "an OpenID Provider's issuer URL (e.g. https://lexflow.eu.auth0.com/) whose RS256/ES256 tokens are accepted beside the HS256 ones; its JWKS is found by discovery and followed through key rotations; empty means none"},
	{"LEXFLOW_OIDC_AUDIENCE", "", "the provider's tokens' required `aud` (the API identifier); required with LEXFLOW_OIDC_ISSUER"},
	{"LEXFLOW_OIDC_ROLES_CLAIM", "roles", "the claim holding a provider token's roles (a list or a space-separated string), e.g. Auth0's namespaced `https://lexflow.example/roles`; roles Lexflow does not know are ignored"},
	{"LEXFLOW_OIDC_ORG_CLAIM", "org", "the claim holding a provider token's organization"},
	{"LEXFLOW_OIDC_OPERATOR_ORG", "", "the organization claim that marks the operator's own staff, who act on every tenant; a provider token with staff roles and no organization keeps only the user role; empty means no provider token is operator staff"},
	{"LEXFLOW_OIDC_HS256", "false", "with LEXFLOW_OIDC_ISSUER set, whether the API still accepts the HS256 tokens signed with LEXFLOW_JWT_SECRET (`lexflow token`); `lexflow dev` always does"},
	{"LEXFLOW_OIDC_LEEWAY", "30s", "clock skew allowed on a provider token's exp, nbf and iat"},
	{"LEXFLOW_OIDC_CLIENT_ID", "", "the web app's public client at the provider (authorization code with PKCE, redirect URI LEXFLOW_PUBLIC_URL/), which must differ from LEXFLOW_OIDC_AUDIENCE: a token addressed to it, an ID token, is refused; empty means the web app offers no provider sign-in"},
	{"LEXFLOW_OIDC_SCOPE", "openid profile", "the scopes the web app asks the provider for"},
	{"LEXFLOW_ASSISTANT_BASE_URL", "", "assistant model's OpenAI-compatible base URL (e.g. http://localhost:4000/v1); empty means the offline model"},
	{"LEXFLOW_ASSISTANT_MODEL", "", "assistant model name; required with LEXFLOW_ASSISTANT_BASE_URL"},
	{"LEXFLOW_ASSISTANT_API_KEY", "", "assistant model's API key; read by the worker only"},
	{"LEXFLOW_ASSISTANT_PROVIDER", "", "the assistant endpoint's provider, which shapes requests and reads answers as it needs (docs/providers.md): `openai`, `azure`, `gemini`, `xai`, `deepseek`, `vllm`, `ollama`, `openrouter`, `lmstudio` or `generic`; empty: guessed from the base URL's host (`generic` when it tells nothing)"},
	{"LEXFLOW_ASSISTANT_API_VERSION", "", "with the `azure` provider: the `api-version` to call the deployment LEXFLOW_ASSISTANT_MODEL names at `<base URL>/deployments/<model>` (base URL `https://<resource>.openai.azure.com/openai`); empty: Azure's v1 API, with the base URL `https://<resource>.openai.azure.com/openai/v1`"},
	{"LEXFLOW_ASSISTANT_CONTEXT_TOKENS", strconv.Itoa(schemas.DefaultContextTokens), "the assistant model's context size in tokens (at least 4096), from which each tool result's budget (docs/tools.md) and the earlier turns' share of a model call are worked out; estimated at four characters a token"},
	{"LEXFLOW_REASONER_BASE_URL", "", "reasoner model's base URL; empty means the assistant's endpoint, model and key"},
	{"LEXFLOW_REASONER_MODEL", "", "reasoner model name; required with LEXFLOW_REASONER_BASE_URL"},
	{"LEXFLOW_REASONER_API_KEY", "", "reasoner model's API key; read by the worker only"},
	{"LEXFLOW_REASONER_PROVIDER", "", "the reasoner endpoint's provider, as LEXFLOW_ASSISTANT_PROVIDER; empty: guessed from its base URL"},
	{"LEXFLOW_REASONER_API_VERSION", "", "with the `azure` provider: the reasoner deployment's `api-version`, as LEXFLOW_ASSISTANT_API_VERSION"},
	{"LEXFLOW_MODEL_TIMEOUT", "60s", "timeout of one model call"},
	{"LEXFLOW_OFFLINE_CHUNK_DELAY", "20ms", "pause between the chunks of the offline model's streamed answers, so that a turn streams as it would with a real model; 0 sends them at once"},
	{"LEXFLOW_MODEL_RECORD", "", "a directory where the worker writes each model exchange (the request and the answer as it came, streamed or not; no header, so no API key) as one JSON file (docs/providers.md, \"Recording and replaying\"); the files hold clients' texts in clear, so only `lexflow dev` takes it: `lexflow worker` refuses to start with it (the agent evaluation records with its own flag, `lexflow-bench eval agent --record`); empty: nothing recorded"},
	{"LEXFLOW_MODEL_REPLAY", "", "a directory of recordings that answer every model request instead of the endpoints, matched by role, step and the tools called so far in the turn; a request none answers fails, naming what was asked and what exists; `lexflow dev` only, as LEXFLOW_MODEL_RECORD; empty: the endpoints answer"},
	{"LEXFLOW_EMBEDDINGS_URL", "", "an OpenAI-compatible embeddings endpoint's base URL (e.g. http://localhost:4000/v1, serving `/v1/embeddings`), whose vectors of the corpus's articles and of each question join legislation_search's ranking by reciprocal rank fusion (docs/providers.md); the articles' vectors are computed once per corpus and model and kept beside the corpus database; empty: search is lexical only"},
	{"LEXFLOW_EMBEDDINGS_MODEL", "", "the embeddings model's name; required with LEXFLOW_EMBEDDINGS_URL"},
	{"LEXFLOW_EMBEDDINGS_API_KEY", "", "the embeddings endpoint's API key; read by the worker only"},
	{"LEXFLOW_SEARCH_GLOSSARY", "true", "whether legislation_search (and POST /v1/query's retrieval) expands a question with the legal glossary's terms in the jurisdiction's languages, and kb_search in the languages of the decisions other than the question's (docs/tools.md)"},
	{"LEXFLOW_SEARCH_LEARNED", "true", "whether legislation_search (and POST /v1/query's retrieval) also ranks articles by the model the corpus learned, when it was built, from its articles' plain words: offline, no endpoint needed (docs/tools.md)"},
	{"LEXFLOW_SEARCH_REWRITE", "true", "whether, with an assistant endpoint configured, legislation_search also ranks the assistant's rewrite of the question into the jurisdiction's languages and legal terms, charged to the case's token budget; the offline model never rewrites"},
	{"LEXFLOW_MAX_STEPS", strconv.Itoa(schemas.DefaultMaxSteps), "model calls allowed in one chat turn"},
	{"LEXFLOW_CORPUS_DB", "", "the legal corpus's SQLite file; empty means LEXFLOW_DATA_DIR/corpus.db (`lexflow corpus load` builds it, `lexflow dev` on first start)"},
	{"LEXE_TOOLS_URL", "", "a LEXE-tools-compatible service (e.g. http://lexe-tools:8021) that answers normattiva_search, eurlex_search, infolex_search, kb_search, lex_search and lex_search_enriched; empty means the shipped corpus and SearXNG"},
	{"LEXFLOW_LEGISLATIE_URL", "", "the Portal Legislativ's SOAP endpoint (https://legislatie.just.ro/apiws/FreeWebService.svc/SOAP): the worker reads there, each day, the current text of the Romanian codes of the corpus and keeps it in the store, where read_legal_text and the citation check read it before the shipped text (docs/deployment.md); empty means the shipped texts, with their as_of"},
	{"LEXFLOW_PORTAL_URL", "", "the Romanian courts' portal query service (`http://portalquery.just.ro/query.asmx`) that court files are linked against and the court watch polls (docs/court-files.md); empty means court files cannot be linked"},
	{"LEXFLOW_PORTAL_INTERVAL", "1s", "the least time between two calls to the courts' portal from one process: the portal is a public service, asked politely"},
	{"LEXFLOW_COURT_WATCH_EVERY", "6h", "how often the court-watch schedule polls every linked court file"},
	{"SEARXNG_URL", "", "SearXNG instance for web_search, and for lex_search and lex_search_enriched without LEXE_TOOLS_URL (JSON format enabled); empty means those tools are not offered"},
	{"LEXFLOW_BLOB_DIR", "", "root of the local blob store that keeps draft PDFs (`cases/<id>/drafts/<name>/rev-<n>.pdf`); empty means LEXFLOW_DATA_DIR/blobs"},
	{"LEXFLOW_BLOB", BlobDir, "where blobs (draft PDFs, uploaded documents, large tool results, each sealed with its case's key) are kept: `dir`, files under LEXFLOW_BLOB_DIR, or `gcs`, objects of the Cloud Storage bucket LEXFLOW_BLOB_BUCKET (docs/deployment.md, \"Cloud Storage\"); every api and worker process must name the same place"},
	{"LEXFLOW_BLOB_BUCKET", "", "with `LEXFLOW_BLOB=gcs`: the Cloud Storage bucket, reached with the application's default credentials, which need to create, read, list and delete its objects (`roles/storage.objectUser`); required"},
	{"LEXFLOW_GCS_ENDPOINT", "", "with `LEXFLOW_BLOB=gcs`: a Cloud Storage emulator's base URL (e.g. fake-gcs-server's `http://127.0.0.1:4443`), called without credentials; empty: Cloud Storage itself"},
	{"LEXFLOW_USER_WAIT", "24h", "how long a case escalated to the client waits for their answer before it opens a support ticket"},
	{"LEXFLOW_TURN_TIMEOUT", "10m", "a chat turn's deadline: past it the turn stops the step it waits for (a model call, a tool being retried) and ends with what it has, saying so; fixed for a case when it starts"},
	{"LEXFLOW_CORS_ORIGINS", "", "comma-separated origins (scheme://host[:port]) whose pages may call the /v1 API from the browser, with bearer tokens and no cookies; never the codec routes; empty means none"},
	{"LEXFLOW_DEFAULT_LANGUAGE", "ro", "a case's, a query's or a citation check's language (ro, it or en) when the client chose none and the text tells none"},
	{"LEXFLOW_STUCK_AFTER", "15m", "how long a case may work without progress before `GET /v1/support/cases?status=stuck` lists it"},
	{"LEXFLOW_PROMPTS_DIR", "", "directory of the system prompt files (`<role>.<lang>.md`); empty means the copies built into the binary from `prompts/`"},
	{"LEXFLOW_CASES_PER_DAY", "50", "cases one user (organization and subject) may open in a UTC day, counted in the store across API replicas; 0 means no limit"},
	{"LEXFLOW_ORG_CASES_PER_DAY", "500", "cases one organization may open in a UTC day; 0 means no limit"},
	{"LEXFLOW_REQUESTS_PER_MINUTE", "120", "requests one user may send to one API process in a minute (a token bucket holding ten seconds' worth); N replicas allow N times as many; 0 means no limit"},
	{"LEXFLOW_ORG_REQUESTS_PER_MINUTE", "1200", "requests one organization may send to one API process in a minute; 0 means no limit"},
	{"LEXFLOW_TOOL_RUNS_PER_MINUTE", "10", "tools one admin may run directly (`POST /v1/admin/tools/execute`) through one API process in a minute: each may read a case's data in clear, so bulk reading is slowed; 0 means no limit"},
	{"LEXFLOW_ORG_CONCURRENT_TURNS", "20", "cases of one organization (or one user without one) that may work on a turn at once, counted by Temporal's visibility across API replicas; more answer 429; 0 means no limit"},
	{"LEXFLOW_MAX_UPLOAD_MB", "20", "the largest document a client may upload, in MB; a larger one answers 413"},
	{"LEXFLOW_DOCUMENTS_PER_CASE", "50", "documents one case may hold; another upload answers 429; 0 means no limit"},
	{"LEXFLOW_ORG_CONCURRENT_READS", "4", "documents of one organization (or one user without one) read at once, counted by Temporal's visibility across API replicas; another upload answers 429 until one is read; 0 means no limit"},
	{"LEXFLOW_CASE_TOKENS_PER_DAY", "1000000", "model tokens (as the endpoint reports them, tiering and the reasoner included) one case may use in a UTC day; past it the case waits in waiting_budget until the day turns or an admin raises its tenant's budget; 0 means no limit"},
	{"LEXFLOW_TOKENS_PER_DAY", "10000000", "model tokens all the cases of one organization (or of one user without one) may use in a UTC day; 0 means no limit"},
	{"LEXFLOW_EVENTS_POLL", "100ms", "how often an event stream (`GET /v1/cases/{id}/events`) reads the store for events that another process wrote: the most such an event waits before it is sent"},
	{"LEXFLOW_PUBLIC_URL", "", "where clients reach Lexflow, which the payment provider sends them back to after a checkout; empty means http://LEXFLOW_HTTP_ADDR"},
	{"LEXFLOW_PRICES", "1=49.00 EUR,2=149.00 EUR,3=399.00 EUR", "price of a case by tier, for cases no subscription covers"},
	{"LEXFLOW_STRIPE_KEY", "", "Stripe secret key (sk_live_… or sk_test_…); empty means no Stripe: `lexflow dev` then uses its test-mode provider, `lexflow api` takes no payments"},
	{"LEXFLOW_STRIPE_API", "https://api.stripe.com", "Stripe's API base URL (stripe-mock's in tests)"},
	{"LEXFLOW_PAYMENTS_WEBHOOK_SECRET", "", "the webhook endpoint's signing secret (whsec_…), required with LEXFLOW_STRIPE_KEY; empty in dev means one generated once into LEXFLOW_DATA_DIR/payments-webhook-secret"},
	{"LEXFLOW_SMTP_ADDR", "", "the mail server (host:port, usually the submission port 587) that notifications and e-mail verification codes go through, over STARTTLS (required, except to a loopback address) (docs/deployment.md, \"E-mail\"); read by the API and the worker; empty: no e-mail, and users cannot turn the e-mail channel on"},
	{"LEXFLOW_SMTP_FROM", "", "the sender of those mails (`Lexflow <notify@example.com>`), whose domain names their Message-IDs; required with LEXFLOW_SMTP_ADDR"},
	{"LEXFLOW_SMTP_USER", "", "the user Lexflow authenticates as (AUTH PLAIN, over TLS only); empty: no authentication"},
	{"LEXFLOW_SMTP_PASSWORD", "", "that user's password; required with LEXFLOW_SMTP_USER"},
	{"LEXFLOW_SMTP_CA_CERT_PATH", "", "PEM file of the certificate authority that signed the mail server's certificate (a private one); empty: the system's roots"},
}

// The blob stores LEXFLOW_BLOB names.
const (
	BlobDir = "dir"
	BlobGCS = "gcs"
)

// The databases LEXFLOW_STORE names.
const (
	StoreMongoDB   = "mongodb"
	StoreFirestore = "firestore"
)

// Var is one environment variable with its default and meaning.
type Var struct {
	Name, Default, Doc string
}

// FromEnv reads the configuration from the environment variables listed in Vars.
func FromEnv() (Config, error) { return From(os.LookupEnv) }

// From reads the configuration from the variables listed in Vars as lookup finds
// them: the environment's for FromEnv, or an environment a process is about to be
// started with.
func From(lookup func(name string) (string, bool)) (Config, error) {
	get := func(name string) string {
		if v, ok := lookup(name); ok {
			return v
		}
		for _, v := range Vars {
			if v.Name == name {
				return v.Default
			}
		}
		panic("config: undeclared variable " + name)
	}
	c := Config{
		DataDir:           get("LEXFLOW_DATA_DIR"),
		HTTPAddr:          get("LEXFLOW_HTTP_ADDR"),
		TemporalAddress:   get("TEMPORAL_ADDRESS"),
		TemporalNamespace: get("TEMPORAL_NAMESPACE"),
		TaskQueue:         get("LEXFLOW_TASK_QUEUE"),
		TemporalCLI:       get("LEXFLOW_TEMPORAL_CLI"),
		TemporalUIServer:  get("LEXFLOW_TEMPORAL_UI_SERVER"),
		WorkerHTTPAddr:    get("LEXFLOW_WORKER_HTTP_ADDR"),
		MetricsAddr:       get("LEXFLOW_METRICS_ADDR"),
		OTLPEndpoint:      get("OTEL_EXPORTER_OTLP_ENDPOINT"),
		ServiceName:       get("OTEL_SERVICE_NAME"),
		WorkerDeployment:  get("LEXFLOW_WORKER_DEPLOYMENT"),
		BuildID:           get("LEXFLOW_BUILD_ID"),
		TemporalUIURL:     get("LEXFLOW_TEMPORAL_UI_URL"),
		Store:             get("LEXFLOW_STORE"),
		MongoURI:          get("MONGODB_URI"),
		MongoDatabase:     get("MONGODB_DATABASE"),
		DevMongoAddr:      get("LEXFLOW_DEV_MONGO_ADDR"),
		FirestoreProject:  get("FIRESTORE_PROJECT_ID"),
		DevFirestoreAddr:  get("LEXFLOW_DEV_FIRESTORE_ADDR"),
		PromptsDir:        get("LEXFLOW_PROMPTS_DIR"),
		CorpusDB:          get("LEXFLOW_CORPUS_DB"),
		SearXNGURL:        get("SEARXNG_URL"),
		PortalURL:         get("LEXFLOW_PORTAL_URL"),
		LexeToolsURL:      get("LEXE_TOOLS_URL"),
		LegislatieURL:     get("LEXFLOW_LEGISLATIE_URL"),
		BlobDir:           get("LEXFLOW_BLOB_DIR"),
		Blob:              get("LEXFLOW_BLOB"),
		BlobBucket:        get("LEXFLOW_BLOB_BUCKET"),
		GCSEndpoint:       get("LEXFLOW_GCS_ENDPOINT"),
		JWTSecret:         get("LEXFLOW_JWT_SECRET"),
		JWTIssuer:         get("LEXFLOW_JWT_ISSUER"),
		MasterKey:         get("LEXFLOW_MASTER_KEY"),
		JWTAudience:       get("LEXFLOW_JWT_AUDIENCE"),
		OIDCIssuer:        get("LEXFLOW_OIDC_ISSUER"),
		OIDCAudience:      get("LEXFLOW_OIDC_AUDIENCE"),
		OIDCRolesClaim:    get("LEXFLOW_OIDC_ROLES_CLAIM"),
		OIDCOrgClaim:      get("LEXFLOW_OIDC_ORG_CLAIM"),
		OIDCOperatorOrg:   get("LEXFLOW_OIDC_OPERATOR_ORG"),
		OIDCClientID:      get("LEXFLOW_OIDC_CLIENT_ID"),
		OIDCScope:         get("LEXFLOW_OIDC_SCOPE"),
		PublicURL:         get("LEXFLOW_PUBLIC_URL"),
		DefaultLanguage:   get("LEXFLOW_DEFAULT_LANGUAGE"),
		Prices:            get("LEXFLOW_PRICES"),
		StripeKey:         get("LEXFLOW_STRIPE_KEY"),
		StripeAPI:         get("LEXFLOW_STRIPE_API"),
		WebhookSecret:     get("LEXFLOW_PAYMENTS_WEBHOOK_SECRET"),
		SMTP: SMTP{Addr: get("LEXFLOW_SMTP_ADDR"), From: get("LEXFLOW_SMTP_FROM"),
			User: get("LEXFLOW_SMTP_USER"), Password: get("LEXFLOW_SMTP_PASSWORD"), CA: get("LEXFLOW_SMTP_CA_CERT_PATH")},
		ModelRecord: get("LEXFLOW_MODEL_RECORD"),
		ModelReplay: get("LEXFLOW_MODEL_REPLAY"),
		Assistant: Model{
			BaseURL:    get("LEXFLOW_ASSISTANT_BASE_URL"),
			Model:      get("LEXFLOW_ASSISTANT_MODEL"),
			APIKey:     get("LEXFLOW_ASSISTANT_API_KEY"),
			Provider:   get("LEXFLOW_ASSISTANT_PROVIDER"),
			APIVersion: get("LEXFLOW_ASSISTANT_API_VERSION"),
		},
		Embeddings: Model{
			BaseURL: get("LEXFLOW_EMBEDDINGS_URL"),
			Model:   get("LEXFLOW_EMBEDDINGS_MODEL"),
			APIKey:  get("LEXFLOW_EMBEDDINGS_API_KEY"),
		},
		Reasoner: Model{
			BaseURL:    get("LEXFLOW_REASONER_BASE_URL"),
			Model:      get("LEXFLOW_REASONER_MODEL"),
			APIKey:     get("LEXFLOW_REASONER_API_KEY"),
			Provider:   get("LEXFLOW_REASONER_PROVIDER"),
			APIVersion: get("LEXFLOW_REASONER_API_VERSION"),
		},
	}
	c.FirestoreEmulatorHost = get("FIRESTORE_EMULATOR_HOST")
	c.TemporalAuth = TemporalAuth{
		CA: get("TEMPORAL_TLS_SERVER_CA_CERT_PATH"), Cert: get("TEMPORAL_TLS_CLIENT_CERT_PATH"), Key: get("TEMPORAL_TLS_CLIENT_KEY_PATH"),
		ServerName: get("TEMPORAL_TLS_SERVER_NAME"), TokenURL: get("LEXFLOW_TEMPORAL_TOKEN_URL"),
		ClientID: get("LEXFLOW_TEMPORAL_CLIENT_ID"), ClientSecret: get("LEXFLOW_TEMPORAL_CLIENT_SECRET"),
		Scope: get("LEXFLOW_TEMPORAL_TOKEN_SCOPE"), Audience: get("LEXFLOW_TEMPORAL_TOKEN_AUDIENCE"),
		Resource: get("LEXFLOW_TEMPORAL_TOKEN_RESOURCE"),
	}
	if c.Store != StoreMongoDB && c.Store != StoreFirestore {
		return c, fmt.Errorf("LEXFLOW_STORE: want %s or %s, got %q", StoreMongoDB, StoreFirestore, c.Store)
	}
	var err error
	if !slices.Contains([]string{"ro", "it", "en"}, c.DefaultLanguage) {
		return c, fmt.Errorf("LEXFLOW_DEFAULT_LANGUAGE %q: ro, it or en", c.DefaultLanguage)
	}
	if err := c.SMTP.check(); err != nil {
		return c, err
	}
	if c.TemporalUIPort, err = strconv.Atoi(get("LEXFLOW_TEMPORAL_UI_PORT")); err != nil {
		return c, fmt.Errorf("LEXFLOW_TEMPORAL_UI_PORT: %w", err)
	}
	if c.ModelTimeout, err = time.ParseDuration(get("LEXFLOW_MODEL_TIMEOUT")); err != nil {
		return c, fmt.Errorf("LEXFLOW_MODEL_TIMEOUT: %w", err)
	}
	if c.OfflineChunkDelay, err = time.ParseDuration(get("LEXFLOW_OFFLINE_CHUNK_DELAY")); err != nil || c.OfflineChunkDelay < 0 {
		return c, fmt.Errorf("LEXFLOW_OFFLINE_CHUNK_DELAY: want 0 or a positive duration such as 20ms, got %q", get("LEXFLOW_OFFLINE_CHUNK_DELAY"))
	}
	if c.ModelRecord != "" && c.ModelReplay != "" {
		return c, errors.New("LEXFLOW_MODEL_RECORD and LEXFLOW_MODEL_REPLAY exclude each other: a replayed exchange has nothing new to record")
	}
	if c.AssistantContextTokens, err = strconv.Atoi(get("LEXFLOW_ASSISTANT_CONTEXT_TOKENS")); err != nil || c.AssistantContextTokens < schemas.MinContextTokens {
		return c, fmt.Errorf("LEXFLOW_ASSISTANT_CONTEXT_TOKENS: want a number of tokens of at least %d, got %q", schemas.MinContextTokens, get("LEXFLOW_ASSISTANT_CONTEXT_TOKENS"))
	}
	if c.MaxSteps, err = strconv.Atoi(get("LEXFLOW_MAX_STEPS")); err != nil || c.MaxSteps < 1 {
		return c, fmt.Errorf("LEXFLOW_MAX_STEPS: want a positive integer, got %q", get("LEXFLOW_MAX_STEPS"))
	}
	for _, d := range []struct {
		name string
		to   *time.Duration
	}{{"LEXFLOW_USER_WAIT", &c.UserWait}, {"LEXFLOW_STUCK_AFTER", &c.StuckAfter}, {"LEXFLOW_TURN_TIMEOUT", &c.TurnTimeout},
		{"LEXFLOW_EVENTS_POLL", &c.EventsPoll}, {"LEXFLOW_PORTAL_INTERVAL", &c.PortalInterval},
		{"LEXFLOW_COURT_WATCH_EVERY", &c.CourtWatchEvery}} {
		if *d.to, err = time.ParseDuration(get(d.name)); err != nil || *d.to <= 0 {
			return c, fmt.Errorf("%s: want a positive duration such as 30m, got %q", d.name, get(d.name))
		}
	}
	for _, n := range []struct {
		name string
		to   *int
	}{{"LEXFLOW_CASES_PER_DAY", &c.CasesPerDay}, {"LEXFLOW_ORG_CASES_PER_DAY", &c.OrgCasesPerDay},
		{"LEXFLOW_REQUESTS_PER_MINUTE", &c.RequestsPerMinute}, {"LEXFLOW_ORG_REQUESTS_PER_MINUTE", &c.OrgRequestsPerMinute},
		{"LEXFLOW_ORG_CONCURRENT_TURNS", &c.OrgConcurrentTurns}, {"LEXFLOW_TOOL_RUNS_PER_MINUTE", &c.ToolRunsPerMinute},
		{"LEXFLOW_DOCUMENTS_PER_CASE", &c.DocumentsPerCase}, {"LEXFLOW_ORG_CONCURRENT_READS", &c.OrgConcurrentReads}} {
		if *n.to, err = strconv.Atoi(get(n.name)); err != nil || *n.to < 0 {
			return c, fmt.Errorf("%s: want 0 or more, got %q", n.name, get(n.name))
		}
	}
	for _, n := range []struct {
		name string
		to   *int64
	}{{"LEXFLOW_CASE_TOKENS_PER_DAY", &c.CaseTokensPerDay}, {"LEXFLOW_TOKENS_PER_DAY", &c.TokensPerDay}} {
		if *n.to, err = strconv.ParseInt(get(n.name), 10, 64); err != nil || *n.to < 0 {
			return c, fmt.Errorf("%s: want 0 or more, got %q", n.name, get(n.name))
		}
	}
	if c.MaxUploadMB, err = strconv.Atoi(get("LEXFLOW_MAX_UPLOAD_MB")); err != nil || c.MaxUploadMB < 1 || c.MaxUploadMB > 1024 {
		return c, fmt.Errorf("LEXFLOW_MAX_UPLOAD_MB: want 1 to 1024, got %q", get("LEXFLOW_MAX_UPLOAD_MB"))
	}
	if c.OIDCLeeway, err = time.ParseDuration(get("LEXFLOW_OIDC_LEEWAY")); err != nil || c.OIDCLeeway < 0 || c.OIDCLeeway > 5*time.Minute {
		return c, fmt.Errorf("LEXFLOW_OIDC_LEEWAY: want a duration from 0 to 5m, got %q", get("LEXFLOW_OIDC_LEEWAY"))
	}
	if c.OIDCHS256, err = strconv.ParseBool(get("LEXFLOW_OIDC_HS256")); err != nil {
		return c, fmt.Errorf("LEXFLOW_OIDC_HS256: want true or false, got %q", get("LEXFLOW_OIDC_HS256"))
	}
	if c.OIDCIssuer != "" && c.OIDCAudience == "" {
		return c, fmt.Errorf("LEXFLOW_OIDC_AUDIENCE is required with LEXFLOW_OIDC_ISSUER: a token for another API of the same provider must not pass")
	}
	if c.OIDCClientID != "" && c.OIDCIssuer == "" {
		return c, fmt.Errorf("LEXFLOW_OIDC_CLIENT_ID needs LEXFLOW_OIDC_ISSUER: the web app signs in at that provider")
	}
	if c.OIDCClientID != "" && c.OIDCClientID == c.OIDCAudience {
		return c, fmt.Errorf("LEXFLOW_OIDC_AUDIENCE must be the API's identifier, not the web app's client (LEXFLOW_OIDC_CLIENT_ID): the provider's ID tokens name the client as their audience")
	}
	if c.StripeKey != "" && c.WebhookSecret == "" {
		return c, fmt.Errorf("LEXFLOW_PAYMENTS_WEBHOOK_SECRET is required with LEXFLOW_STRIPE_KEY: without it no payment can be confirmed")
	}
	if err := c.TemporalAuth.check(); err != nil {
		return c, err
	}
	if c.PublicURL == "" {
		c.PublicURL = "http://" + c.HTTPAddr
	}
	if c.CORSOrigins, err = parseOrigins(get("LEXFLOW_CORS_ORIGINS")); err != nil {
		return c, fmt.Errorf("LEXFLOW_CORS_ORIGINS: %w", err)
	}
	if c.CorpusDB == "" {
		c.CorpusDB = c.Path("corpus.db")
	}
	if c.BlobDir == "" {
		c.BlobDir = c.Path("blobs")
	}
	if err := c.checkBlob(); err != nil {
		return c, err
	}
	if c.Reasoner.BaseURL == "" {
		c.Reasoner = c.Assistant
	}
	for role, m := range map[string]Model{"ASSISTANT": c.Assistant, "REASONER": c.Reasoner} {
		if !m.Offline() && m.Model == "" {
			return c, fmt.Errorf("LEXFLOW_%s_MODEL is required when LEXFLOW_%s_BASE_URL is set", role, role)
		}
	}
	for name, dst := range map[string]*bool{"LEXFLOW_SEARCH_GLOSSARY": &c.SearchGlossary, "LEXFLOW_SEARCH_REWRITE": &c.SearchRewrite,
		"LEXFLOW_SEARCH_LEARNED": &c.SearchLearned} {
		if *dst, err = strconv.ParseBool(get(name)); err != nil {
			return c, fmt.Errorf("%s: want true or false, got %q", name, get(name))
		}
	}
	if c.Embeddings.BaseURL != "" && c.Embeddings.Model == "" {
		return c, fmt.Errorf("LEXFLOW_EMBEDDINGS_MODEL is required when LEXFLOW_EMBEDDINGS_URL is set")
	}
	if c.TaskQueue == "" {
		return c, fmt.Errorf("LEXFLOW_TASK_QUEUE must not be empty")
	}
	for _, secret := range strings.Split(get("LEXFLOW_MASTER_KEY_PREVIOUS"), ",") {
		if secret = strings.TrimSpace(secret); secret != "" {
			c.MasterKeyPrevious = append(c.MasterKeyPrevious, secret)
		}
	}
	if c.CompressPayloads, err = strconv.ParseBool(get("LEXFLOW_COMPRESS_PAYLOADS")); err != nil {
		return c, fmt.Errorf("LEXFLOW_COMPRESS_PAYLOADS: want true or false, got %q", get("LEXFLOW_COMPRESS_PAYLOADS"))
	}
	if c.KeyCacheTTL, err = time.ParseDuration(get("LEXFLOW_KEY_CACHE_TTL")); err != nil || c.KeyCacheTTL <= 0 || c.KeyCacheTTL > time.Hour {
		return c, fmt.Errorf("LEXFLOW_KEY_CACHE_TTL: want a duration from 1ns to 1h, such as 1m, got %q", get("LEXFLOW_KEY_CACHE_TTL"))
	}
	if c.Retention, err = parseRetention(get("LEXFLOW_RETENTION")); err != nil {
		return c, fmt.Errorf("LEXFLOW_RETENTION: %w", err)
	}
	if c.JWTSecret != "" && len(c.JWTSecret) < MinJWTSecret {
		return c, fmt.Errorf("LEXFLOW_JWT_SECRET has %d bytes; an HS256 secret needs at least %d", len(c.JWTSecret), MinJWTSecret)
	}
	return c, nil
}

// check reports settings of a that cannot work together.
func (a TemporalAuth) check() error {
	if (a.Cert == "") != (a.Key == "") {
		return errors.New("TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH go together: a client certificate needs its key")
	}
	if a.TokenURL != "" && (a.ClientID == "" || a.ClientSecret == "") {
		return errors.New("LEXFLOW_TEMPORAL_CLIENT_ID and LEXFLOW_TEMPORAL_CLIENT_SECRET are required with LEXFLOW_TEMPORAL_TOKEN_URL")
	}
	if a.TokenURL == "" && (a.ClientID != "" || a.ClientSecret != "") {
		return errors.New("LEXFLOW_TEMPORAL_CLIENT_ID and LEXFLOW_TEMPORAL_CLIENT_SECRET need LEXFLOW_TEMPORAL_TOKEN_URL, where the token comes from")
	}
	return nil
}

// checkBlob says what is missing or contradictory in the blob store's settings: a
// bucket or an endpoint without the gcs store would leave blobs in a folder unnoticed.
func (c Config) checkBlob() error {
	switch c.Blob {
	case BlobDir:
		if c.BlobBucket != "" || c.GCSEndpoint != "" {
			return errors.New("LEXFLOW_BLOB_BUCKET and LEXFLOW_GCS_ENDPOINT need LEXFLOW_BLOB=gcs")
		}
	case BlobGCS:
		if c.BlobBucket == "" {
			return errors.New("LEXFLOW_BLOB_BUCKET is required with LEXFLOW_BLOB=gcs")
		}
		if c.GCSEndpoint != "" {
			if u, err := url.Parse(c.GCSEndpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
				return fmt.Errorf("LEXFLOW_GCS_ENDPOINT: want a base URL such as http://127.0.0.1:4443, got %q", c.GCSEndpoint)
			}
		}
	default:
		return fmt.Errorf("LEXFLOW_BLOB: want %s or %s, got %q", BlobDir, BlobGCS, c.Blob)
	}
	return nil
}

// MinJWTSecret is the shortest HS256 secret accepted, in bytes: a shorter one can be
// guessed from a token offline.
const MinJWTSecret = 32

// check says what is missing or malformed of a configured mail server.
func (m SMTP) check() error {
	if m.Addr == "" {
		return nil
	}
	if _, _, err := net.SplitHostPort(m.Addr); err != nil {
		return fmt.Errorf("LEXFLOW_SMTP_ADDR: want host:port, got %q", m.Addr)
	}
	if _, err := mail.ParseAddress(m.From); err != nil {
		return fmt.Errorf("LEXFLOW_SMTP_FROM: an address is required with LEXFLOW_SMTP_ADDR, got %q (%v)", m.From, err)
	}
	if m.User != "" && m.Password == "" {
		return errors.New("LEXFLOW_SMTP_PASSWORD is required with LEXFLOW_SMTP_USER")
	}
	return nil
}

// Path returns a path inside the data directory.
func (c Config) Path(name string) string { return filepath.Join(c.DataDir, name) }

// TemporalPort is the port of TemporalAddress, where `lexflow dev` starts the dev server.
func (c Config) TemporalPort() (int, error) {
	i := strings.LastIndex(c.TemporalAddress, ":")
	if i < 0 {
		return 0, fmt.Errorf("TEMPORAL_ADDRESS %q has no port", c.TemporalAddress)
	}
	return strconv.Atoi(c.TemporalAddress[i+1:])
}

// Table renders Vars as the Markdown table in docs/configuration.md.
func Table() string {
	var b strings.Builder
	b.WriteString("| variable | default | meaning |\n|---|---|---|\n")
	for _, v := range Vars {
		def := "(empty)"
		if v.Default != "" {
			def = "`" + v.Default + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", v.Name, def, v.Doc)
	}
	return b.String()
}

// Unavailable says which tools this deployment cannot serve, and why: web_search
// needs SearXNG; lex_search and lex_search_enriched need SearXNG or a LEXE-tools
// service, whose own endpoints then serve them.
func (c Config) Unavailable() map[string]string {
	out := map[string]string{}
	if c.SearXNGURL == "" {
		out[schemas.ToolWebSearch] = "no web search service is configured (SEARXNG_URL)"
		if c.LexeToolsURL == "" {
			why := "no legal search service is configured (LEXE_TOOLS_URL or SEARXNG_URL)"
			out[schemas.ToolLexSearch], out[schemas.ToolLexSearchEnriched] = why, why
		}
	}
	return out
}

// maxRetentionDays bounds a retention period given in days, well within a Duration.
const maxRetentionDays = 100 * 366

// parseRetention reads org=period pairs, a period being a Go duration or a number of
// days ("365d"), at least a day.
func parseRetention(s string) (map[string]time.Duration, error) {
	out := map[string]time.Duration{}
	for _, pair := range strings.Split(s, ",") {
		if pair = strings.TrimSpace(pair); pair == "" {
			continue
		}
		org, period, ok := strings.Cut(pair, "=")
		if org = strings.TrimSpace(org); !ok || org == "" {
			return nil, fmt.Errorf("want org=period pairs, such as acme=365d, got %q", pair)
		}
		period = strings.TrimSpace(period)
		var d time.Duration
		var err error
		if days, isDays := strings.CutSuffix(period, "d"); isDays {
			var n int
			if n, err = strconv.Atoi(days); err == nil && (n < 1 || n > maxRetentionDays) {
				err = errors.New("out of range")
			}
			d = time.Duration(n) * 24 * time.Hour
		} else {
			d, err = time.ParseDuration(period)
		}
		if err != nil || d < 24*time.Hour {
			return nil, fmt.Errorf("%s: want a period from a day to %d days, such as 365d or 2160h, got %q", org, maxRetentionDays, period)
		}
		if _, dup := out[org]; dup {
			return nil, fmt.Errorf("%s is given twice", org)
		}
		out[org] = d
	}
	return out, nil
}

// parseOrigins reads comma-separated origins, each a scheme, a host and perhaps a
// port, as a browser sends it in Origin; "*" is refused, since it would let any site's
// page use a token it obtained.
func parseOrigins(s string) ([]string, error) {
	var out []string
	for _, o := range strings.Split(s, ",") {
		if o = strings.TrimSpace(o); o == "" {
			continue
		}
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil ||
			(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
			return nil, fmt.Errorf("want origins such as https://app.example.com, got %q", o)
		}
		out = append(out, u.Scheme+"://"+u.Host)
	}
	return out, nil
}

package api

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/store"
)

// Failure kinds that handlers return, wrapped with a detail by problemf.
var (
	errBadJSON        = errors.New("bad JSON")
	errInvalidInput   = errors.New("invalid input")
	errCaseNotRunning = errors.New("case not running")
	errCaseClosed     = errors.New("case closed")
	errNoTurn         = errors.New("no turn running")
	errForbidden      = errors.New("forbidden")
	errTurnFailed     = errors.New("turn failed")
	errUnavailable    = errors.New("unavailable")
	// errPaymentRequired, errCasePaused and errConflict are the case lifecycle's refusals.
	errPaymentRequired = errors.New("payment required")
	errCasePaused      = errors.New("case paused")
	errConflict        = errors.New("conflict")
	// errTooManyRequests is a limit reached; its retryAfter says when it lifts.
	errTooManyRequests = errors.New("too many requests")
	// errTooLarge is an upload past its size, pages, or what it unpacks to, or an
	// update past case_details' limits; errUnsupportedMedia an upload of a kind
	// Lexflow does not read.
	errTooLarge         = errors.New("too large")
	errUnsupportedMedia = errors.New("unsupported media type")
	// errBudgetExhausted is a case waiting on its model-token budget (see budgetWait).
	errBudgetExhausted = errors.New("budget exhausted")
	// errKeyReused is an Idempotency-Key sent again with another message.
	errKeyReused = errors.New("idempotency key reused")
	// errToolContext is a tool_context (Sanctum's decrypted admin context) sent where
	// it is not taken: by anyone but an admin, or to a route whose model does not
	// read it.
	errToolContext = errors.New("tool context refused")
	// errAuditFailed is a staff action not done because its audit entry could not be
	// written.
	errAuditFailed = errors.New("audit failed")
)

// problemKind is how one failure kind is answered: its status and its stable type.
type problemKind struct {
	err    error
	status int
	typ    string
	title  string
}

// problemKinds maps every failure kind to its answer, in one table.
var problemKinds = []problemKind{
	{auth.ErrUnauthorized, http.StatusUnauthorized, "unauthorized", "Missing or invalid bearer token"},
	{errForbidden, http.StatusForbidden, "forbidden", "Not allowed for your role"},
	{errBadJSON, http.StatusBadRequest, "bad-json", "Request body is not valid JSON"},
	{errInvalidInput, http.StatusUnprocessableEntity, "invalid-input", "Invalid input"},
	{errKeyReused, http.StatusUnprocessableEntity, "idempotency-key-reused", "The Idempotency-Key was sent with another message"},
	{store.ErrNotFound, http.StatusNotFound, "not-found", "Not found"},
	{errCaseNotRunning, http.StatusConflict, "case-not-running", "The case's workflow is not running"},
	{errCaseClosed, http.StatusConflict, "case-closed", "The case is closed"},
	{errNoTurn, http.StatusConflict, "no-turn-running", "No turn is running"},
	{errPaymentRequired, http.StatusPaymentRequired, "payment-required", "The case must be paid for first"},
	{errBudgetExhausted, http.StatusPaymentRequired, "budget-exhausted", "The model-token budget for today is used up"},
	{errCasePaused, http.StatusConflict, "case-paused", "The case is paused for support"},
	{errConflict, http.StatusConflict, "conflict", "The request conflicts with the case's state"},
	{errLegalHold, http.StatusConflict, "legal-hold", "The case is under a legal hold"},
	{errErasing, http.StatusConflict, "erasing", "The case is being erased"},
	{errCaseErased, http.StatusGone, "case-erased", "The case was erased"},
	{errTooLarge, http.StatusRequestEntityTooLarge, "too-large", "Request body too large"},
	{errUnsupportedMedia, http.StatusUnsupportedMediaType, "unsupported-media-type", "A kind of document Lexflow does not read"},
	{errTooManyRequests, http.StatusTooManyRequests, "too-many-requests", "A limit is reached"},
	{errGone, http.StatusGone, "gone", "This route is gone"},
	{errToolContext, http.StatusBadRequest, "tool-context-refused", "tool_context is taken from admins only, on POST /v1/chat"},
	{errBadWebhook, http.StatusBadRequest, "bad-webhook", "The webhook is not signed, stale, or does not match its checkout"},
	{errTurnFailed, http.StatusBadGateway, "turn-failed", "The chat turn failed"},
	{errAuditFailed, http.StatusInternalServerError, "audit-failed", "The action was not done: its audit entry could not be written"},
	{errPortalOff, http.StatusNotImplemented, "court-portal-not-configured", "No courts' portal is configured: court files cannot be linked"},
	{errUnavailable, http.StatusServiceUnavailable, "unavailable", "A service Lexflow depends on is unavailable"},
}

// ProblemContentType is the media type of error responses.
const ProblemContentType = "application/problem+json"

// ProblemTypeBase prefixes every problem type; the suffix is the kind's stable name.
const ProblemTypeBase = "https://lexflow.dev/problems/"

// Problem is an RFC 9457 problem detail, the body of every error response.
type Problem struct {
	Type     string `json:"type"`
	Title    string `json:"title"`
	Status   int    `json:"status"`
	Detail   string `json:"detail,omitempty"`
	Instance string `json:"instance,omitempty"`
	// ResumesAt, on budget-exhausted, is when the case goes on by itself.
	ResumesAt *time.Time `json:"resumes_at,omitempty"`
}

// detailed is a failure kind with a detail for the client.
type detailed struct {
	kind   error
	detail string
}

func (d *detailed) Error() string { return d.kind.Error() + ": " + d.detail }
func (d *detailed) Unwrap() error { return d.kind }

// limitReached is errTooManyRequests with its detail and when the limit lifts, which
// the error handler sends as Retry-After.
type limitReached struct {
	problem    *detailed
	retryAfter time.Duration
}

func (l *limitReached) Error() string { return l.problem.Error() }
func (l *limitReached) Unwrap() error { return l.problem }

// budgetWait is errBudgetExhausted with when the case resumes, which the error handler
// sends as Retry-After and as the problem's resumes_at.
type budgetWait struct {
	problem   *detailed
	resumesAt time.Time
}

func (b *budgetWait) Error() string { return b.problem.Error() }
func (b *budgetWait) Unwrap() error { return b.problem }

// tooMany returns errTooManyRequests with a detail and when to retry.
func tooMany(detail string, retryAfter time.Duration) error {
	return &limitReached{&detailed{kind: errTooManyRequests, detail: detail}, retryAfter}
}

// problemf returns an error of kind whose problem detail is detail.
func problemf(kind error, detail string) error { return &detailed{kind: kind, detail: detail} }

// errorHandler is the Echo HTTPErrorHandler: it answers every error as
// application/problem+json, choosing the status from problemKinds.
func errorHandler(log *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		p := toProblem(err)
		if p.Status >= 500 {
			log.Error("Request failed", "method", c.Request().Method, "path", c.Path(), "status", p.Status, "error", err)
		}
		p.Instance = c.Request().URL.Path
		if p.Status == http.StatusUnauthorized {
			c.Response().Header().Set("WWW-Authenticate", `Bearer realm="lexflow"`)
		}
		var limited *limitReached
		if errors.As(err, &limited) {
			c.Response().Header().Set("Retry-After", strconv.Itoa(int(limited.retryAfter.Round(time.Second).Seconds())))
		}
		var waiting *budgetWait
		if errors.As(err, &waiting) && !waiting.resumesAt.IsZero() {
			at := waiting.resumesAt.UTC()
			p.ResumesAt = &at
			c.Response().Header().Set("Retry-After", strconv.Itoa(max(int(time.Until(at).Seconds())+1, 1)))
		}
		body, _ := json.Marshal(p)
		_ = c.Blob(p.Status, ProblemContentType, body)
	}
}

func toProblem(err error) Problem {
	for _, k := range problemKinds {
		if errors.Is(err, k.err) {
			p := Problem{Type: ProblemTypeBase + k.typ, Title: k.title, Status: k.status}
			var d *detailed
			if errors.As(err, &d) {
				p.Detail = d.detail
			}
			return p
		}
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		title := http.StatusText(he.Code)
		p := Problem{Title: title, Status: he.Code, Type: ProblemTypeBase + httpErrorType}
		if he.Code == http.StatusNotFound {
			p.Type = ProblemTypeBase + "not-found"
		}
		for _, k := range routerProblems {
			if k.status == he.Code {
				p.Type = ProblemTypeBase + k.typ
			}
		}
		if msg, ok := he.Message.(string); ok && msg != title {
			p.Detail = msg
		}
		return p
	}
	return Problem{Type: ProblemTypeBase + internalProblem.typ, Title: internalProblem.title, Status: internalProblem.status}
}

// routerProblems are the problems Echo's router and middleware raise: a method a path
// does not have, a body over the limit.
var routerProblems = []problemKind{
	{nil, http.StatusMethodNotAllowed, "method-not-allowed", "Method not allowed"},
	{nil, http.StatusRequestEntityTooLarge, "too-large", "Request body too large"},
}

// internalProblem answers a failure no kind describes; its detail is never the error.
var internalProblem = problemKind{nil, http.StatusInternalServerError, "internal", "Internal error"}

// httpErrorType is any other HTTP error Echo raises, with its own status.
const httpErrorType = "http-error"

// problemTypes are every problem type the API answers, with its status (0 for
// http-error, whose status varies).
func problemTypes() map[string]int {
	out := map[string]int{httpErrorType: 0, internalProblem.typ: internalProblem.status}
	for _, k := range append(slices.Clone(problemKinds), routerProblems...) {
		out[k.typ] = k.status
	}
	return out
}

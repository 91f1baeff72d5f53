package api

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/lexflow/lexflow/internal/auth"
	"github.com/lexflow/lexflow/internal/codec"
	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/store"
)

// The codec server: Temporal's remote codec protocol at /codec/encode and
// /codec/decode, for the Temporal Web UI and CLI. Support staff reach it with a bearer
// token (the CLI's --codec-auth) or, from the Web UI, which has no sign-in of its own,
// with the cookie the web app's support pages open (POST /v1/support/codec-session).
// Each payload is decoded only if its case is in the caller's scope; the others come
// back sealed, and every decode is audited.

// Codec session cookie.
const (
	codecCookie = "lexflow_codec"
	codecPath   = "/codec"
	// CodecSessionTTL is how long a codec cookie is valid at most (never longer than
	// the token that opened it); the web app renews it from the first support page it
	// opens until the staff member signs out.
	CodecSessionTTL = 30 * time.Minute
)

// maxCodecBody bounds a codec request: a history's payloads, which Temporal itself
// caps at 2 MB each, decoded a page at a time.
const maxCodecBody = "8M"

// auditDecode is the audit action of a decode that opened payloads of a case.
const auditDecode = "codec.decode"

// codecAuth authenticates a codec request: a bearer token, or the codec cookie from
// the Temporal Web UI's origin. A request from any other browser origin is refused
// before anything else, and CORS lets only the Web UI's origin read the answers.
func (h *handlers) codecAuth(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		origin := c.Request().Header.Get(echo.HeaderOrigin)
		if origin != "" && origin != h.uiOrigin() {
			return problemf(errForbidden, "the codec server answers only the Temporal Web UI's origin")
		}
		if origin != "" {
			h.allowOrigin(c, origin)
		}
		var id auth.Identity
		ck, cerr := c.Cookie(codecCookie)
		switch {
		case c.Request().Header.Get(echo.HeaderAuthorization) != "":
			token, err := bearerToken(c)
			if err != nil {
				return err
			}
			if id, err = h.verify(h.Auth, token); err != nil {
				return err
			}
		case cerr == nil && origin != "" && h.CodecTokens != nil:
			var err error
			if id, err = h.verify(h.CodecTokens, ck.Value); err != nil {
				return err
			}
		default:
			return problemf(auth.ErrUnauthorized, "send an Authorization: Bearer <token> header, or open a codec session from the web app's support pages")
		}
		c.Set(identityKey, id)
		return next(c)
	}
}

// uiOrigin is the origin of the Temporal Web UI, or "" when none is configured.
func (h *handlers) uiOrigin() string {
	u, err := url.Parse(h.App.TemporalUI)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// allowOrigin sets the CORS headers that let origin read the answer, with credentials.
func (h *handlers) allowOrigin(c echo.Context, origin string) {
	hd := c.Response().Header()
	hd.Set(echo.HeaderAccessControlAllowOrigin, origin)
	hd.Set(echo.HeaderAccessControlAllowCredentials, "true")
	hd.Add(echo.HeaderVary, echo.HeaderOrigin)
}

// codecPreflight answers the Web UI's CORS preflight of /codec/encode and
// /codec/decode; other origins get no CORS headers, so their browsers send nothing.
func (h *handlers) codecPreflight(c echo.Context) error {
	origin := c.Request().Header.Get(echo.HeaderOrigin)
	if op := c.Param("op"); op != "encode" && op != "decode" {
		return problemf(store.ErrNotFound, "the codec server has /codec/encode and /codec/decode")
	}
	if origin == "" || origin != h.uiOrigin() {
		return problemf(errForbidden, "the codec server answers only the Temporal Web UI's origin")
	}
	h.allowOrigin(c, origin)
	hd := c.Response().Header()
	hd.Set(echo.HeaderAccessControlAllowMethods, http.MethodPost)
	hd.Set(echo.HeaderAccessControlAllowHeaders, "Content-Type, X-Namespace, Authorization, Authorization-Extras")
	hd.Set(echo.HeaderAccessControlMaxAge, "600")
	return c.NoContent(http.StatusNoContent)
}

// readPayloads reads a codec request's body: Temporal's Payloads in protobuf JSON.
func readPayloads(c echo.Context) ([]*commonpb.Payload, error) {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return nil, problemf(errBadJSON, "read the body: "+err.Error())
	}
	var ps commonpb.Payloads
	if err := protojson.Unmarshal(body, &ps); err != nil {
		return nil, problemf(errBadJSON, `want {"payloads": [...]}, Temporal's Payloads in protobuf JSON: `+err.Error())
	}
	return ps.Payloads, nil
}

func writePayloads(c echo.Context, ps []*commonpb.Payload) error {
	out, err := protojson.Marshal(&commonpb.Payloads{Payloads: ps})
	if err != nil {
		return err
	}
	return c.JSONBlob(http.StatusOK, out)
}

// codecEncode answers POST /codec/encode: the payloads sealed under the system key,
// for what staff send from the Web UI (a signal's input, say). Only the operator's
// staff can open them again, and erasing a case leaves them readable: staff's input
// is not the client's words.
func (h *handlers) codecEncode(c echo.Context) error {
	ps, err := readPayloads(c)
	if err != nil {
		return err
	}
	out, err := (&codec.Codec{Keys: h.Keys}).Encode(ps)
	if err != nil {
		return fmt.Errorf("%w: encode: %w", errUnavailable, err)
	}
	return writePayloads(c, out)
}

// codecDecode answers POST /codec/decode: each payload sealed under the key of a case
// in the caller's scope is opened, and the others come back as they were, so the Web
// UI shows ciphertext for them. A tenant's queries and citation checks open like its
// cases. The system key's payloads (other workflows of no case, and what
// /codec/encode sealed) open for the operator's staff only. Every case whose payloads were opened is audited first.
func (h *handlers) codecDecode(c echo.Context) error {
	ps, err := readPayloads(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	who := identity(c)
	allowed, orgOf, opened := map[string]bool{}, map[string]string{}, map[string]int{}
	out := slices.Clone(ps)
	for i, p := range ps {
		if !codec.Encrypted(p) {
			continue
		}
		keyID := codec.KeyOf(p)
		ok, seen := allowed[keyID]
		if !seen {
			ok, orgOf[keyID], err = h.mayDecode(c, who, keyID)
			if err != nil {
				return err
			}
			allowed[keyID] = ok
		}
		if !ok {
			continue
		}
		key, err := h.Keys.Key(ctx, keyID)
		if errors.Is(err, keys.ErrDestroyed) || errors.Is(err, store.ErrNotFound) {
			allowed[keyID] = false // an erased case: its payloads stay sealed for good
			continue
		}
		if err != nil {
			return fmt.Errorf("%w: read key: %w", errUnavailable, err)
		}
		if out[i], err = codec.Open(key, p); err != nil {
			out[i] = p
			continue
		}
		opened[keyID]++
	}
	for keyID, n := range opened {
		if err := h.audit(c, auditDecode, orgOf[keyID], keys.CaseOfKey(keyID), map[string]any{"key_id": keyID, "payloads": n}); err != nil {
			return err
		}
	}
	return writePayloads(c, out)
}

// mayDecode reports whether staff member who may open payloads sealed under keyID,
// and the organization the key's case or tenant belongs to: a case's key if its
// organization is in their scope, an organization's tenant key likewise, a user's
// tenant key and the system key for the operator's staff.
func (h *handlers) mayDecode(c echo.Context, who auth.Identity, keyID string) (bool, string, error) {
	if keyID == keys.SystemKeyID {
		return who.Operator, "", nil
	}
	if tenant := keys.TenantOfKey(keyID); tenant != "" {
		org, _ := strings.CutPrefix(tenant, "org:")
		if org == tenant {
			org = "" // a user of no organization: the operator's staff alone
		}
		return inScope(who, org), org, nil
	}
	caseID := keys.CaseOfKey(keyID)
	if caseID == "" {
		return false, "", nil
	}
	org, _, err := h.Store.CaseOwner(c.Request().Context(), caseID)
	if errors.Is(err, store.ErrNotFound) {
		return false, "", nil
	}
	if err != nil {
		return false, "", fmt.Errorf("%w: read case: %w", errUnavailable, err)
	}
	return inScope(who, org), org, nil
}

// CodecSession answers POST /v1/support/codec-session: where the Web UI's codec
// endpoint is, the Web UI itself, and when the session's cookie expires.
type CodecSession struct {
	Endpoint   string    `json:"endpoint"`
	TemporalUI string    `json:"temporal_ui"`
	ExpiresAt  time.Time `json:"expires_at"`
}

// openCodecSession answers POST /v1/support/codec-session: it sets the HttpOnly,
// SameSite=Strict cookie, scoped to /codec, that lets the Temporal Web UI reach the
// codec server as the calling staff member for CodecSessionTTL, or until the caller's
// token expires if that is sooner.
func (h *handlers) openCodecSession(c echo.Context) error {
	if h.CodecTokens == nil || h.uiOrigin() == "" {
		return problemf(errUnavailable, "no codec session: this deployment names no Temporal Web UI (LEXFLOW_TEMPORAL_UI_URL)")
	}
	who := identity(c)
	// The cookie never outlives the token that opened it.
	ttl := CodecSessionTTL
	if !who.Expires.IsZero() {
		ttl = min(ttl, time.Until(who.Expires).Truncate(time.Second))
	}
	if ttl < time.Second {
		return problemf(auth.ErrUnauthorized, "the token expires within a second: sign in again")
	}
	token, err := h.CodecTokens.Mint(who, ttl)
	if err != nil {
		return err
	}
	expires := time.Now().Add(ttl).UTC()
	c.SetCookie(h.codecSessionCookie(token, int(ttl.Seconds())))
	return c.JSON(http.StatusOK, CodecSession{Endpoint: strings.TrimSuffix(h.PublicURL, "/") + codecPath,
		TemporalUI: h.App.TemporalUI, ExpiresAt: expires})
}

// closeCodecSession answers DELETE /v1/support/codec-session: the cookie is cleared.
func (h *handlers) closeCodecSession(c echo.Context) error {
	c.SetCookie(h.codecSessionCookie("", -1))
	return c.NoContent(http.StatusNoContent)
}

func (h *handlers) codecSessionCookie(value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: codecCookie, Value: value, Path: codecPath, MaxAge: maxAge, HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: strings.HasPrefix(h.PublicURL, "https://")}
}

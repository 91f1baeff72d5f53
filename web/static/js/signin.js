// Signing in: under `lexflow dev` a form that mints a dev token for any user,
// organization and role; with an OpenID Provider configured, the authorization-code
// flow with PKCE. The token is kept in this tab's session storage only.
import { ApiError, call, refreshToken, setToken } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const pkceKey = "lexflow.pkce";

export function signInPage(app, signedIn) {
  const page = h("section", { class: "card narrow", "aria-labelledby": "signin-title" },
    h("h1", { id: "signin-title" }, t("sign_in")),
    h("p", {}, t("sign_in_intro")));
  if (app.config.oidc) {
    page.append(h("button", { class: "primary", onclick: () => startOIDC(app).catch((err) => app.show(err)) },
      t("sign_in_with", { issuer: new URL(app.config.oidc.issuer).host })));
  }
  if (app.config.dev) page.append(devForm(app, signedIn));
  if (!app.config.oidc && !app.config.dev) page.append(h("p", {}, t("no_sign_in")));
  app.main.replaceChildren(page);
}

function devForm(app, signedIn) {
  const roles = ["user", "support", "admin", "billing"];
  const form = h("form", { class: "stack", "aria-label": t("dev_sign_in") },
    h("h2", {}, t("dev_sign_in")),
    h("p", { class: "hint" }, t("dev_sign_in_hint")),
    h("label", { for: "dev-sub" }, t("user_name")),
    h("input", { id: "dev-sub", name: "sub", required: true, value: "alice", autocomplete: "username", pattern: "[A-Za-z0-9][A-Za-z0-9._@\\-]{0,63}" }),
    h("label", { for: "dev-org" }, t("organization")),
    h("input", { id: "dev-org", name: "org", placeholder: t("organization_none"), pattern: "[A-Za-z0-9][A-Za-z0-9._@\\-]{0,63}" }),
    h("fieldset", {},
      h("legend", {}, t("roles")),
      roles.map((role) => h("label", { class: "check" },
        h("input", { type: "checkbox", name: "roles", value: role, checked: role === "user" }), t("role_" + role)))),
    h("button", { class: "primary", type: "submit" }, t("sign_in")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = new FormData(form);
    try {
      const minted = await call("POST", "/dev/token", {
        sub: data.get("sub").trim(), org: data.get("org").trim(), roles: data.getAll("roles"),
      });
      setToken(minted.token);
      app.clear();
      signedIn();
    } catch (err) {
      app.show(err);
    }
  });
  return form;
}

// audience asks for an access token for the API: Auth0 reads audience, RFC 8707's
// providers resource, which must be an absolute URI (else the provider's default
// resource applies).
function audience(o) {
  return { audience: o.audience, ...resource(o) };
}

function resource(o) {
  return URL.canParse(o.audience) ? { resource: o.audience } : {};
}

function base64url(bytes) {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// startOIDC sends the browser to the provider with a PKCE challenge and a state, both
// kept in session storage for the way back.
async function startOIDC(app) {
  const o = app.config.oidc;
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const state = base64url(crypto.getRandomValues(new Uint8Array(16)));
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
  sessionStorage.setItem(pkceKey, JSON.stringify({ verifier, state, hash: location.hash }));
  const u = new URL(o.authorization_endpoint);
  u.search = new URLSearchParams({
    response_type: "code", client_id: o.client_id, redirect_uri: o.redirect_uri,
    scope: o.scope, state, code_challenge: challenge, code_challenge_method: "S256",
    ...audience(o),
  }).toString();
  location.assign(u.href);
}

// finishSignIn exchanges the provider's code for an access token, once, if the state
// is the one this tab sent, and returns the page (hash) the user signed in from.
export async function finishSignIn(app, params) {
  const saved = JSON.parse(sessionStorage.getItem(pkceKey) || "null");
  sessionStorage.removeItem(pkceKey);
  // An answer this tab did not ask for, error or not, shows nothing of what it says.
  if (!saved || saved.state !== params.get("state") || !app.config.oidc) {
    throw new ApiError(400, { detail: t("sign_in_state") });
  }
  if (params.has("error")) throw new ApiError(401, { detail: t("sign_in_failed") + " (" + params.get("error") + ")" });
  const o = app.config.oidc;
  let resp;
  try {
    resp = await fetch(o.token_endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code", code: params.get("code"), redirect_uri: o.redirect_uri,
        client_id: o.client_id, code_verifier: saved.verifier, ...resource(o),
      }),
    });
  } catch (err) {
    throw new ApiError(0, { detail: err.message });
  }
  const body = await resp.json().catch(() => ({}));
  if (!resp.ok || !body.access_token) {
    throw new ApiError(resp.status, { detail: body.error_description || body.error || t("sign_in_failed") });
  }
  setToken(body.access_token, body.refresh_token);
  return saved.hash || "";
}

// renewToken asks the provider for a fresh access token with the refresh token that
// sign-in gave (a provider gives one when LEXFLOW_OIDC_SCOPE asks for it, often with
// offline_access), and answers whether it got one. Without one (dev tokens, or no
// refresh token), the API's 401 signs the user out and they sign in again.
export async function renewToken(app) {
  const o = app.config && app.config.oidc;
  const refresh = refreshToken();
  if (!o || !refresh) return false;
  try {
    const resp = await fetch(o.token_endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refresh, client_id: o.client_id, ...resource(o) }),
    });
    const body = await resp.json().catch(() => ({}));
    if (!resp.ok || !body.access_token) return false;
    setToken(body.access_token, body.refresh_token || refresh);
    return true;
  } catch {
    return false;
  }
}

// The app's only way to the server: the public /v1 API with the signed-in user's
// bearer token, which lives in this tab's session storage and never in a URL or cookie.

const tokenKey = "lexflow.token";
// refreshKey keeps the OpenID Provider's refresh token, when sign-in gave one.
const refreshKey = "lexflow.refresh";

// ApiError is a problem (RFC 9457) the API answered, or a network failure (status 0).
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.type = (problem.type || "").replace("https://lexflow.dev/problems/", "");
    this.problem = problem;
  }
}

let onSignedOut = () => {};

// whenSignedOut sets what happens when the API refuses the token (expired, revoked).
export function whenSignedOut(f) {
  onSignedOut = f;
}

function token() {
  return sessionStorage.getItem(tokenKey);
}

// setToken keeps the access token, and the refresh token that came with it (if any);
// setToken(null) forgets both.
export function setToken(t, refresh) {
  if (t) sessionStorage.setItem(tokenKey, t);
  else sessionStorage.removeItem(tokenKey);
  if (refresh) sessionStorage.setItem(refreshKey, refresh);
  else if (!t) sessionStorage.removeItem(refreshKey);
}

export function refreshToken() {
  return sessionStorage.getItem(refreshKey);
}

let renew = async () => false;

// whenTokenExpires sets how a fresh token is fetched when the API says the token has
// expired (a stream's reconnect event, or a 401): f answers whether it got one.
export function whenTokenExpires(f) {
  renew = f;
}

// identity reads who the token is for, for the interface only (the API checks it):
// a provider's token keeps its roles and organization in the claims oidc names.
export function identity(oidc) {
  const t = token();
  if (!t) return null;
  try {
    const bytes = Uint8Array.from(atob(t.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder().decode(bytes));
    if (claims.exp && claims.exp * 1000 < Date.now()) return null;
    const provider = oidc && claims.iss === oidc.issuer;
    const rolesClaim = claims[provider ? oidc.roles_claim : "roles"];
    const roles = Array.isArray(rolesClaim) ? rolesClaim : String(rolesClaim || "user").split(" ");
    return { sub: claims.sub, org: claims[provider ? oidc.org_claim : "org"] || "", roles, exp: claims.exp };
  } catch {
    return null;
  }
}

function headers(extra = {}) {
  const h = { Accept: "application/json", ...extra };
  const t = token();
  if (t) h.Authorization = `Bearer ${t}`;
  return h;
}

async function problemOf(resp) {
  let problem = { title: resp.statusText };
  try {
    problem = await resp.json();
  } catch {
    // not JSON: keep the status text
  }
  if (resp.status === 401) onSignedOut();
  return new ApiError(resp.status, problem);
}

// call sends one request and answers its JSON, or throws an ApiError.
export async function call(method, path, body, extraHeaders = {}, renewed = false) {
  const init = { method, headers: headers(extraHeaders) };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  let resp;
  try {
    resp = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, { title: "offline", detail: err.message });
  }
  if (resp.status === 401 && !renewed && (await renew())) return call(method, path, body, extraHeaders, true);
  if (!resp.ok) throw await problemOf(resp);
  return resp.status === 204 ? null : resp.json();
}

// download fetches a file with the token and hands it to the browser as a Blob.
export async function download(path, filename) {
  let resp;
  try {
    resp = await fetch(path, { headers: headers({ Accept: "*/*" }) });
  } catch (err) {
    throw new ApiError(0, { title: "offline", detail: err.message });
  }
  if (!resp.ok) throw await problemOf(resp);
  const url = URL.createObjectURL(await resp.blob());
  const a = Object.assign(document.createElement("a"), { href: url, download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

// fetchBlob fetches a file with the token and answers it as a Blob, or null when the
// API answers 404 (nothing there yet); other failures throw an ApiError.
export async function fetchBlob(path) {
  let resp;
  try {
    resp = await fetch(path, { headers: headers({ Accept: "*/*" }) });
  } catch (err) {
    throw new ApiError(0, { title: "offline", detail: err.message });
  }
  if (resp.status === 404) return null;
  if (!resp.ok) throw await problemOf(resp);
  return resp.blob();
}

// upload sends a file as multipart/form-data (the part named file) and answers the
// API's JSON, calling onProgress with the fraction sent; XMLHttpRequest, since fetch
// reports no upload progress.
export function upload(path, file, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    for (const [k, v] of Object.entries(headers())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onerror = () => reject(new ApiError(0, { title: "offline", detail: "the upload broke off" }));
    xhr.onload = () => {
      let body = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: the status says it
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else {
        if (xhr.status === 401) onSignedOut();
        reject(new ApiError(xhr.status, body.title ? body : { title: xhr.statusText }));
      }
    };
    const form = new FormData();
    form.append("file", file, file.name);
    xhr.send(form);
  });
}

// Reconnection backoff: 1 s, doubling, at most 15 s between tries.
const firstRetry = 1000;
const lastRetry = 15_000;

// follow reads a Server-Sent Events stream of case events with fetch and a
// ReadableStream (EventSource cannot send the Authorization header) and calls onEvent
// with each, in order. A dropped connection is opened again with Last-Event-ID, so no
// event is missed or seen twice; onState hears "live" and "reconnecting". A stream
// that ends with a reconnect event because its token expired is opened again at once
// with a fresh token (whenTokenExpires), if one can be had. It stops when signal
// aborts or the API refuses the request (onError hears why).
export async function follow(path, { after = 0, onEvent, onState = () => {}, onError = () => {}, signal }) {
  let last = after;
  let wait = firstRetry;
  while (!signal.aborted) {
    try {
      const resp = await fetch(path, {
        headers: headers({ Accept: "text/event-stream", "Last-Event-ID": String(last) }),
        signal,
      });
      if (resp.status === 401 && (await renew())) continue;
      if (!resp.ok) {
        const err = await problemOf(resp);
        if (resp.status < 500 && resp.status !== 429) {
          onError(err);
          return;
        }
        throw err;
      }
      onState("live");
      wait = firstRetry;
      let expired = false;
      for await (const ev of sseEvents(resp.body, signal)) {
        if (ev.event === "reconnect") {
          expired = ev.data.reason === "token-expired";
          continue;
        }
        if (ev.id) last = Number(ev.id);
        try {
          onEvent(ev);
        } catch (err) {
          // A page's bug is not a dropped connection: report it and read on.
          setTimeout(() => { throw err; });
        }
      }
      if (expired && (await renew())) continue; // at once, with the fresh token
    } catch (err) {
      if (signal.aborted) return;
    }
    onState("reconnecting");
    await sleep(wait, signal);
    wait = Math.min(wait * 2, lastRetry);
  }
}

// sleep waits ms, or less if signal aborts.
export function sleep(ms, signal) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

// sseEvents parses a text/event-stream body into {id, event, data} with data parsed
// as JSON; comments (keep-alives) are skipped.
async function* sseEvents(body, signal) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  const cancel = () => reader.cancel().catch(() => {});
  signal.addEventListener("abort", cancel, { once: true });
  try {
    yield* blocks(reader);
  } finally {
    signal.removeEventListener("abort", cancel);
  }
}

// blocks parses the stream's text into events.
async function* blocks(reader) {
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += value.replace(/\r\n?/g, "\n");
    let end;
    while ((end = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, end);
      buf = buf.slice(end + 2);
      const ev = { id: "", event: "message", data: [] };
      for (const line of block.split("\n")) {
        if (line === "" || line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const val = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "id") ev.id = val;
        else if (field === "event") ev.event = val;
        else if (field === "data") ev.data.push(val);
      }
      if (ev.data.length === 0) continue;
      try {
        ev.data = JSON.parse(ev.data.join("\n"));
      } catch {
        continue;
      }
      yield ev;
    }
  }
}

// newKey is an Idempotency-Key: a retried request with it is answered, not run again.
export function newKey() {
  return crypto.randomUUID();
}

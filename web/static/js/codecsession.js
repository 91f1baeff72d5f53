// The codec session: while support staff are signed in, the API keeps an HttpOnly
// cookie for its /codec routes, with which the Temporal Web UI (which has no sign-in
// of its own) decrypts the histories of the cases in their scope. The app never sees
// the cookie; it opens the session on the first support page, renews it before it
// expires until sign-out, and closes it then.
import { call } from "./api.js";

// A session is renewed this long before it expires.
const renewBefore = 5 * 60_000;

let timer = null;

// openCodecSession opens the session unless it is open, and keeps it open.
export async function openCodecSession(app) {
  if (timer !== null || !app.config.temporal_ui) return;
  timer = 0;
  try {
    const r = await call("POST", "/v1/support/codec-session");
    const wait = Math.max(new Date(r.expires_at).getTime() - Date.now() - renewBefore, 60_000);
    timer = setTimeout(() => { timer = null; openCodecSession(app); }, wait);
  } catch (err) {
    timer = null;
    app.show(err);
  }
}

// closeCodecSession stops renewing the session and clears the cookie of a staff
// member signing out, even one whose session this page did not open (it was opened
// before a reload). With an expired token there is nothing to ask: the cookie expires
// by itself.
export async function closeCodecSession(who, tokenValid = true) {
  clearTimeout(timer);
  timer = null;
  if (!tokenValid || !who || !who.roles.includes("support")) return;
  try {
    await call("DELETE", "/v1/support/codec-session");
  } catch {
    // signed out anyway: the cookie expires by itself
  }
}

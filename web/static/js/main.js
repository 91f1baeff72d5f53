// The app's shell: the header, the routes (#/, #/cases/<id>, #/deadlines,
// #/deadlines/calculator, #/memory, #/notifications, #/notifications/settings, #/support,
// #/support/<id>), sign-in and readable errors.
import { call, identity, setToken, whenSignedOut, whenTokenExpires } from "./api.js";
import { h, replace } from "./dom.js";
import { languages, lang, setLang, t } from "./i18n.js";
import { finishSignIn, renewToken, signInPage } from "./signin.js";
import { casesPage } from "./cases.js";
import { casePage } from "./casepage.js";
import { memoryPage } from "./memory.js";
import { calculatorPage } from "./calculator.js";
import { myDeadlinesPage } from "./mydeadlines.js";
import { notificationsPage, notificationSettingsPage, unreadBadge } from "./notifications.js";
import { supportPage, supportCasePage } from "./support.js";
import { closeCodecSession } from "./codecsession.js";

const main = document.getElementById("main");
const header = document.getElementById("top");
const alertBox = document.getElementById("alert");

// app is what every page gets: the deployment's config, who is signed in, and the
// shared helpers.
const app = {
  config: { dev: false, namespace: "default" },
  who: null,
  main,
  // show puts a readable message (an ApiError's detail, or text) in the alert line.
  show(err, kind = "error") {
    if (err.status === 401) return; // whenSignedOut has said so already
    const text = typeof err === "string" ? err : err.status === 0 ? t("offline") : err.message;
    replace(alertBox, text ? h("p", { class: kind }, text, " ", h("button", { class: "link", onclick: () => replace(alertBox) }, t("dismiss"))) : null);
  },
  clear() {
    replace(alertBox);
  },
  go(hash) {
    if (location.hash === hash) route();
    else location.hash = hash;
  },
};

let leave = () => {};

function renderHeader() {
  const who = app.who;
  const isStaff = who && (who.roles.includes("support") || who.roles.includes("admin"));
  replace(header,
    h("a", { class: "brand", href: "#/" }, "Lexflow"),
    who && h("nav", { "aria-label": t("navigation") },
      h("a", { href: "#/" }, t("my_cases")),
      h("a", { href: "#/deadlines" }, t("my_deadlines")),
      h("a", { href: "#/memory" }, t("memory")),
      h("a", { href: "#/notifications", id: "nav-notifications" }, t("notifications"), unreadBadge()),
      isStaff && h("a", { href: "#/support" }, t("support"))),
    h("div", { class: "tools" },
      h("label", { for: "lang" }, t("language")),
      h("select", { id: "lang", onchange: (e) => { setLang(e.target.value); renderHeader(); route(); } },
        languages.map(([code, name]) => h("option", { value: code, selected: code === lang() }, name))),
      who && h("span", { class: "who" }, who.org ? `${who.sub} · ${who.org}` : who.sub),
      who && h("button", { class: "secondary", onclick: signOut }, t("sign_out"))));
  document.documentElement.lang = lang();
}

async function signOut() {
  await closeCodecSession(app.who);
  setToken(null);
  app.who = null;
  renderHeader();
  app.go("#/");
}

async function route() {
  leave();
  leave = () => {};
  app.who = identity(app.config.oidc);
  renderHeader();
  main.replaceChildren();
  if (!app.who) {
    signInPage(app, () => { app.who = identity(app.config.oidc); renderHeader(); route(); });
    return;
  }
  let parts = [];
  try {
    parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    // a malformed address opens the case list
  }
  const cleanup = parts[0] === "cases" && parts[1] ? casePage(app, parts[1])
    : parts[0] === "deadlines" && parts[1] === "calculator" ? calculatorPage(app)
    : parts[0] === "deadlines" ? myDeadlinesPage(app)
    : parts[0] === "memory" ? memoryPage(app)
    : parts[0] === "notifications" && parts[1] === "settings" ? notificationSettingsPage(app)
    : parts[0] === "notifications" ? notificationsPage(app)
    : parts[0] === "support" && parts[1] ? supportCasePage(app, parts[1])
    : parts[0] === "support" ? supportPage(app)
    : casesPage(app);
  if (typeof cleanup === "function") leave = cleanup;
  main.focus({ preventScroll: true });
}

async function boot() {
  try {
    app.config = await call("GET", "/app/config.json");
  } catch (err) {
    app.show(err);
  }
  whenTokenExpires(() => renewToken(app));
  whenSignedOut(() => {
    closeCodecSession(app.who, false);
    setToken(null);
    app.show(t("signed_out"), "info");
    route();
  });
  const params = new URLSearchParams(location.search);
  if (params.has("code") || params.has("error")) {
    let hash = location.hash;
    try {
      hash = await finishSignIn(app, params);
    } catch (err) {
      app.show(err);
    }
    history.replaceState(null, "", "/" + hash);
  }
  if (params.has("checkout") && params.has("case")) {
    // Back from the payment provider: open the case, which updates once paid.
    app.show(params.get("checkout") === "success" ? t("payment_sent") : t("payment_cancelled"), "info");
    history.replaceState(null, "", "/#/cases/" + encodeURIComponent(params.get("case")));
  }
  window.addEventListener("hashchange", () => { app.clear(); route(); });
  // The skip link moves focus to the content; as a hash it would change the route.
  document.querySelector("a.skip").addEventListener("click", (e) => { e.preventDefault(); main.focus(); });
  route();
}

boot();

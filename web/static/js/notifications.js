// The user's notifications (#/notifications: the list, newest first, with what is
// unread) and how they are told (#/notifications/settings: channels, language, time
// zone, an e-mail address verified by a code, and the calendar feed).
import { call } from "./api.js";
import { h, replace } from "./dom.js";
import { lang, languages, t } from "./i18n.js";
import { feedSection } from "./feed.js";

// unreadBadge is a badge that shows the user's unread count once it is known.
export function unreadBadge() {
  const badge = h("span", { class: "badge unread-count", id: "unread-count", hidden: true });
  call("GET", "/v1/me/notifications?limit=1").then((page) => showUnread(badge, page.unread)).catch(() => {});
  return badge;
}

function showUnread(badge, n) {
  badge.hidden = !n;
  badge.textContent = n ? t("notifications_unread", { n }) : "";
}

export function notificationsPage(app) {
  const list = h("ul", { class: "notifications", "aria-busy": "true" });
  const more = h("div");
  const unread = h("p", { id: "notifications-unread", role: "status" });
  const all = h("button", { class: "secondary", id: "mark-all-read", onclick: () => markAll(app, list, unread) }, t("mark_all_read"));
  app.main.replaceChildren(
    h("h1", {}, t("notifications")),
    h("p", {}, h("a", { href: "#/notifications/settings" }, t("notification_settings"))),
    h("div", { class: "row" }, unread, all),
    list, more);
  load(app, list, more, unread, "");
}

async function load(app, list, more, unread, after) {
  try {
    const page = await call("GET", "/v1/me/notifications?limit=20" + (after ? "&after=" + encodeURIComponent(after) : ""));
    list.removeAttribute("aria-busy");
    setUnread(unread, page.unread);
    if (!after && page.notifications.length === 0) list.append(h("li", { class: "empty" }, t("no_notifications")));
    for (const n of page.notifications) list.append(item(app, n, unread));
    replace(more, page.next && h("button", { class: "secondary", onclick: () => load(app, list, more, unread, page.next) }, t("more")));
  } catch (err) {
    app.show(err);
  }
}

// item is one notification: its title and text, its case, when it came, and a button
// that marks it read while it is unread.
function item(app, n, unread) {
  const li = h("li", { class: n.read_at ? "card" : "card unread", "data-id": n.id },
    h("h2", {}, n.title),
    h("p", { class: "notice-body" }, n.body),
    h("div", { class: "meta" },
      h("a", { href: "#/cases/" + encodeURIComponent(n.case_id) }, t("go_to_case", { id: n.case_id })), " · ",
      h("time", { datetime: n.created_at }, new Date(n.created_at).toLocaleString(lang()))));
  if (!n.read_at) {
    const button = h("button", { class: "secondary mark-read" }, t("mark_read"));
    button.addEventListener("click", async () => {
      try {
        const r = await call("POST", "/v1/me/notifications/" + encodeURIComponent(n.id) + "/read");
        li.classList.remove("unread");
        button.remove();
        setUnread(unread, r.unread);
      } catch (err) {
        app.show(err);
      }
    });
    li.append(button);
  }
  return li;
}

async function markAll(app, list, unread) {
  try {
    const r = await call("POST", "/v1/me/notifications/read");
    for (const li of list.querySelectorAll("li.unread")) {
      li.classList.remove("unread");
      li.querySelector("button.mark-read")?.remove();
    }
    setUnread(unread, r.unread);
  } catch (err) {
    app.show(err);
  }
}

// setUnread says how many are unread, here and in the header's badge.
function setUnread(el, n) {
  el.textContent = n ? t("notifications_unread", { n }) : t("notifications_all_read");
  const badge = document.getElementById("unread-count");
  if (badge) showUnread(badge, n);
}

export function notificationSettingsPage(app) {
  const status = h("p", { role: "status", id: "settings-status" });
  const app_ = h("input", { type: "checkbox", id: "channel-app", name: "channels", value: "app" });
  const email = h("input", { type: "checkbox", id: "channel-email", name: "channels", value: "email" });
  const language = h("select", { id: "notify-language" },
    h("option", { value: "" }, t("language_case")),
    languages.map(([code, name]) => h("option", { value: code }, name)));
  const zone = h("input", { id: "time-zone", list: "time-zones", autocomplete: "off", spellcheck: false });
  const zones = h("datalist", { id: "time-zones" },
    (Intl.supportedValuesOf ? Intl.supportedValuesOf("timeZone") : []).map((z) => h("option", { value: z })));
  const zoneHint = h("p", { class: "hint", id: "time-zone-hint" });
  const form = h("form", { class: "card stack", "aria-labelledby": "settings-title" },
    h("h2", { id: "settings-title" }, t("notification_settings")),
    h("fieldset", {}, h("legend", {}, t("channels")),
      h("label", {}, app_, " ", t("channel_app")),
      h("label", {}, email, " ", t("channel_email"))),
    h("label", { for: "notify-language" }, t("notify_language")), language,
    h("label", { for: "time-zone" }, t("time_zone")), zone, zones, zoneHint,
    h("button", { class: "primary", type: "submit" }, t("save")), status);
  const address = h("section", { class: "card stack", "aria-labelledby": "email-title" });
  let current = null;

  const show = (s) => {
    current = s;
    app_.checked = s.channels.includes("app");
    email.checked = s.channels.includes("email");
    email.disabled = !s.email_available || !s.email;
    language.value = s.language || "";
    zone.value = s.time_zone || "";
    zone.placeholder = s.time_zone_used;
    zoneHint.textContent = t("time_zone_default", { zone: s.time_zone_used });
    emailSection(app, address, s, show);
  };
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const channels = [app_, email].filter((c) => c.checked).map((c) => c.value);
      show(await call("PUT", "/v1/me/notifications/settings", { channels, language: language.value, time_zone: zone.value.trim() }));
      status.textContent = t("settings_saved");
    } catch (err) {
      app.show(err);
      if (current) show(current);
    }
  });
  app.main.replaceChildren(h("h1", {}, t("notifications")),
    h("p", {}, h("a", { href: "#/notifications" }, t("notifications_list"))), form, address, feedSection(app));
  call("GET", "/v1/me/notifications/settings").then(show).catch((err) => app.show(err));
}

// emailSection shows the verified address and the one waiting for its code, with the
// forms that send a code and take it back.
function emailSection(app, section, s, show) {
  const title = h("h2", { id: "email-title" }, t("email_address"));
  if (!s.email_available) {
    replace(section, title, h("p", { id: "email-state" }, t("email_unavailable")));
    return;
  }
  const state = h("p", { id: "email-state" }, s.email ? t("email_verified", { email: s.email }) : t("email_none"));
  const input = h("input", { type: "email", id: "email", required: true, autocomplete: "email", value: s.pending_email || "" });
  const ask = h("form", { class: "stack", id: "email-form" },
    h("label", { for: "email" }, t("new_email")), input, h("button", { class: "secondary", type: "submit" }, t("send_code")));
  ask.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      show(await call("PUT", "/v1/me/notifications/email", { email: input.value.trim() }));
    } catch (err) {
      app.show(err);
    }
  });
  const parts = [title, state, ask];
  if (s.pending_email) {
    const code = h("input", { id: "code", required: true, inputmode: "numeric", autocomplete: "one-time-code", pattern: "[0-9]{6}", maxlength: 6 });
    const verify = h("form", { class: "stack", id: "code-form" },
      h("p", { id: "code-sent" }, t("code_sent", { email: s.pending_email, at: new Date(s.pending_expires_at).toLocaleTimeString(lang()) })),
      h("label", { for: "code" }, t("verification_code")), code, h("button", { class: "primary", type: "submit" }, t("verify")));
    verify.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        show(await call("POST", "/v1/me/notifications/email/verify", { code: code.value.trim() }));
      } catch (err) {
        app.show(err);
        if (err.type === "invalid-input" || err.type === "conflict") call("GET", "/v1/me/notifications/settings").then(show).catch(() => {});
      }
    });
    parts.push(verify);
  }
  if (s.email || s.pending_email) {
    parts.push(h("button", { class: "link", id: "remove-email", onclick: async () => {
      try {
        show(await call("DELETE", "/v1/me/notifications/email"));
      } catch (err) {
        app.show(err);
      }
    } }, t("remove_email")));
  }
  replace(section, ...parts);
}

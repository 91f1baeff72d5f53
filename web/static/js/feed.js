// The calendar feed on the notification settings page: a secret URL of the user's
// deadlines that a calendar application polls (POST /v1/me/feed makes it, again
// rotates it and turns the old URL off; DELETE turns it off). The API shows a URL only
// when it makes one, so the page shows it then, to copy.
import { call } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";

export function feedSection(app) {
  const out = h("div", { id: "feed-url-box" });
  const status = h("p", { role: "status", id: "feed-status" });
  const make = h("button", { class: "secondary", type: "button", id: "feed-make" }, t("feed_make"));
  const off = h("button", { class: "link", type: "button", id: "feed-off" }, t("feed_off"));
  make.addEventListener("click", async () => {
    try {
      const r = await call("POST", "/v1/me/feed");
      const url = h("input", { id: "feed-url", readonly: true, value: r.url, spellcheck: false });
      replace(out, h("label", { for: "feed-url" }, t("feed_url")), url, h("p", { class: "hint" }, t("feed_url_hint")));
      make.textContent = t("feed_rotate");
      status.textContent = t("feed_made");
      url.select();
    } catch (err) {
      app.show(err);
    }
  });
  off.addEventListener("click", async () => {
    try {
      await call("DELETE", "/v1/me/feed");
      replace(out);
      make.textContent = t("feed_make");
      status.textContent = t("feed_is_off");
    } catch (err) {
      app.show(err);
    }
  });
  return h("section", { class: "card stack", "aria-labelledby": "feed-title" },
    h("h2", { id: "feed-title" }, t("dl_feed")), h("p", { class: "hint" }, t("feed_hint")),
    out, h("div", { class: "row" }, make, off), status);
}

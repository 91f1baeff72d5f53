// "My deadlines" (#/deadlines): the user's deadlines across their cases, soonest first
// (GET /v1/me/deadlines), each with a link to its case.
import { call } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";

export function myDeadlinesPage(app) {
  const list = h("ul", { class: "deadlines", id: "my-deadlines", "aria-busy": "true" });
  app.main.replaceChildren(
    h("h1", {}, t("my_deadlines")),
    h("p", {}, h("a", { href: "#/deadlines/calculator" }, t("dl_calculator")), " · ",
      h("a", { href: "#/notifications/settings" }, t("dl_feed"))),
    list);
  call("GET", "/v1/me/deadlines").then((r) => {
    list.removeAttribute("aria-busy");
    // The API answers soonest first; sorting again keeps the page right whatever it is given.
    const all = [...r.deadlines].sort((a, b) => a.due.localeCompare(b.due));
    replace(list, all.length === 0 ? h("li", { class: "empty" }, t("dl_none")) : all.map((d) =>
      h("li", { class: "card deadline " + d.status, "data-id": d.deadline_id },
        h("time", { datetime: d.due }, d.due), " ", h("strong", {}, d.title), " ",
        h("span", { class: "badge" }, t("dl_status_" + d.status)), " · ",
        h("a", { href: "#/cases/" + encodeURIComponent(d.case_id) }, t("go_to_case", { id: d.case_id })))));
  }).catch((err) => app.show(err));
}

// The client's cases, newest first, and the form that opens a new one.
import { call, newKey } from "./api.js";
import { h, replace } from "./dom.js";
import { lang, t, languages } from "./i18n.js";
import { phaseBadge } from "./phases.js";

export function casesPage(app) {
  const list = h("ul", { class: "cases", "aria-busy": "true" });
  const more = h("div");
  app.main.replaceChildren(
    h("h1", {}, t("my_cases")),
    newCaseForm(app),
    h("section", { "aria-labelledby": "cases-title" }, h("h2", { id: "cases-title" }, t("your_cases")), list, more));
  load(app, list, more, "");
}

async function load(app, list, more, after) {
  try {
    const page = await call("GET", "/v1/cases?limit=20" + (after ? "&after=" + encodeURIComponent(after) : ""));
    list.removeAttribute("aria-busy");
    if (!after && page.cases.length === 0) list.append(h("li", { class: "empty" }, t("no_cases")));
    for (const c of page.cases) {
      list.append(h("li", {},
        h("a", { href: "#/cases/" + encodeURIComponent(c.case_id) }, c.description),
        h("div", { class: "meta" }, phaseBadge(c.phase, c.status), " ",
          h("time", { datetime: c.created_at }, new Date(c.created_at).toLocaleString(lang())))));
    }
    replace(more, page.next && h("button", { class: "secondary", onclick: () => load(app, list, more, page.next) }, t("more")));
  } catch (err) {
    app.show(err);
  }
}

function newCaseForm(app) {
  let key = newKey();
  const form = h("form", { class: "card stack", "aria-labelledby": "new-case-title" },
    h("h2", { id: "new-case-title" }, t("new_case")),
    h("label", { for: "case-description" }, t("describe_case")),
    h("textarea", { id: "case-description", name: "description", required: true, rows: 4, maxlength: 8000, placeholder: t("describe_placeholder") }),
    h("label", { for: "case-language" }, t("case_language")),
    h("select", { id: "case-language", name: "language" },
      h("option", { value: "" }, t("language_auto")),
      languages.map(([code, name]) => h("option", { value: code, selected: code === lang() }, name))),
    h("button", { class: "primary", type: "submit" }, t("open_case")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = new FormData(form);
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const body = { description: data.get("description").trim() };
      if (data.get("language")) body.language = data.get("language");
      // One key per form: a double click or a retry after a lost answer opens one case.
      const created = await call("POST", "/v1/cases", body, { "Idempotency-Key": key });
      key = newKey();
      app.go("#/cases/" + encodeURIComponent(created.case_id));
    } catch (err) {
      app.show(err);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

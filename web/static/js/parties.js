// The people and companies of a case: a list and a form that checks CNP, CUI and
// e-mail as the API does. Their data stays here: the chat only ever names them partyN.
import { call } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";

// The API's own formats (api/parties.go).
const formats = {
  cnp: /^[1-9]\d{12}$/,
  cui: /^(?:[Rr][Oo])?\d{2,10}$/,
  email: /^[^@\s]+@[^@\s]+\.[^@\s]+$/,
};

export function partiesSection(app, caseId) {
  const path = "/v1/cases/" + encodeURIComponent(caseId) + "/parties";
  const list = h("ul", { class: "parties" });
  const field = (name, label, attrs = {}) => [
    h("label", { for: "party-" + name }, t(label)),
    h("input", { id: "party-" + name, name, ...attrs }),
  ];
  const form = h("form", { class: "stack", id: "party-form", "aria-label": t("add_party"), novalidate: true },
    field("first_name", "first_name", { autocomplete: "off" }),
    field("last_name", "last_name", { autocomplete: "off" }),
    field("company_name", "company_name", { autocomplete: "off" }),
    field("aliases", "aliases", { placeholder: t("aliases_placeholder") }),
    field("cnp", "cnp", { inputmode: "numeric", maxlength: 13, pattern: formats.cnp.source }),
    field("cui", "cui", { maxlength: 12, pattern: formats.cui.source }),
    field("address", "address"),
    field("email", "email", { type: "email" }),
    h("button", { class: "secondary", type: "submit" }, t("add_party")));

  function check(data) {
    if (!data.first_name && !data.last_name && !data.company_name) return t("party_needs_name");
    for (const name of ["cnp", "cui", "email"]) {
      if (data[name] && !formats[name].test(data[name])) return t("party_bad_" + name);
    }
    return "";
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, String(v).trim()]));
    const problem = check(data);
    if (problem) {
      app.show(problem);
      return;
    }
    data.aliases = data.aliases ? data.aliases.split(",").map((a) => a.trim()).filter(Boolean) : [];
    for (const k of Object.keys(data)) if (data[k] === "") delete data[k];
    try {
      await call("POST", path, data);
      form.reset();
      app.clear();
      load();
    } catch (err) {
      app.show(err);
    }
  });

  async function load() {
    try {
      const r = await call("GET", path);
      replace(list, r.parties.length === 0 ? h("li", { class: "empty" }, t("no_parties")) : r.parties.map((p) =>
        h("li", {}, h("code", {}, p.party_id), " ", [p.first_name, p.last_name, p.company_name].filter(Boolean).join(" "),
          p.aliases && p.aliases.length > 0 && h("span", { class: "hint" }, ` (${p.aliases.join(", ")})`))));
    } catch (err) {
      app.show(err);
    }
  }
  load();
  return h("section", { "aria-labelledby": "parties-title" },
    h("h2", { id: "parties-title" }, t("parties")), h("p", { class: "hint" }, t("parties_hint")), list,
    h("details", {}, h("summary", {}, t("add_party")), form));
}

// A deadline computation's request as form fields (jurisdiction, the day it runs from,
// amount, unit, direction, code, the August suspension) and its answer as people read
// it: the last day, the rules applied with their articles, the days skipped and why.
// The calculator page and a case's deadlines share them; the rules are
// POST /v1/deadlines/compute's (docs/deadlines.md).
import { h } from "./dom.js";
import { t } from "./i18n.js";

// computeFields builds the request's fields, their ids prefixed with prefix. Its body()
// is the request as the API takes it: the suspension is sent only where it applies
// (Italy's code of civil procedure), since the API refuses it anywhere else; sync()
// shows or hides the suspension after the fields were set other than by hand (a reset).
export function computeFields(prefix) {
  const id = (name) => prefix + "-" + name;
  const label = (name) => h("label", { for: id(name) }, t("dl_" + name));
  const select = (name, values) => h("select", { id: id(name), name },
    values.map((v) => h("option", { value: v }, t("dl_" + name + "_" + v))));
  const jurisdiction = select("jurisdiction", ["ro", "it"]);
  const from = h("input", { id: id("from"), name: "from", type: "date", required: true, min: "2015-01-01", max: "2099-12-31" });
  const amount = h("input", { id: id("amount"), name: "amount", type: "number", required: true, min: 1, max: 36525, step: 1, value: "30" });
  const unit = select("unit", ["days", "weeks", "months", "years"]);
  const direction = select("direction", ["forward", "backward"]);
  const code = select("code", ["cpc", "cc"]);
  const suspension = h("input", { id: id("suspension"), name: "suspension", type: "checkbox", checked: true });
  const suspensionRow = h("div", {}, h("label", {}, suspension, " ", t("dl_suspension")),
    h("p", { class: "hint" }, t("dl_suspension_hint")));
  const sync = () => { suspensionRow.hidden = jurisdiction.value !== "it" || code.value !== "cpc"; };
  jurisdiction.addEventListener("change", sync);
  code.addEventListener("change", sync);
  sync();
  return {
    sync,
    el: h("div", { class: "stack" },
      label("jurisdiction"), jurisdiction, label("from"), from, label("amount"), amount, label("unit"), unit,
      label("direction"), direction, label("code"), code, suspensionRow),
    body() {
      const b = { jurisdiction: jurisdiction.value, from: from.value, amount: Number(amount.value), unit: unit.value,
        direction: direction.value, code: code.value };
      if (!suspensionRow.hidden) b.suspension = suspension.checked;
      return b;
    },
  };
}

// computationView shows an answer (compute's, or a stored deadline's computation): the
// last day, then the rules in the order applied and the days skipped.
export function computationView(answer) {
  const skipped = answer.non_working || [];
  return h("div", { class: "computation" },
    h("p", { class: "due" }, t("dl_due_on", { day: answer.due }), answer.zone ? h("span", { class: "hint" }, " · " + answer.zone) : ""),
    h("h3", { class: "small" }, t("dl_rules")),
    h("ol", { class: "rules" }, (answer.rules || []).map((r) =>
      h("li", {}, h("strong", {}, r.article), h("div", {}, r.detail)))),
    h("h3", { class: "small" }, t("dl_skipped")),
    skipped.length === 0 ? h("p", { class: "hint" }, t("dl_none_skipped"))
      : h("ul", { class: "skipped" }, skipped.map((d) =>
        h("li", {}, h("time", { datetime: d.date }, d.date), d.to ? [" – ", h("time", { datetime: d.to }, d.to)] : "", ": ", d.reason))));
}

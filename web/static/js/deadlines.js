// A case's deadlines (/v1/cases/{id}/deadlines): each with its last day, status and how
// it was computed (the rules applied with their articles, the days skipped and why); a
// proposed one is confirmed here, an active one marked done, any deleted (asking twice);
// and a form adds one, computed by the codes' rules or set to a day by hand.
import { call, newKey } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { computationView, computeFields } from "./deadlinecompute.js";

const sourceKinds = ["court_order", "communication", "hearing", "other"];

export function deadlinesSection(app, caseId) {
  const path = "/v1/cases/" + encodeURIComponent(caseId) + "/deadlines";
  const list = h("ul", { class: "deadlines", id: "case-deadlines" });
  const form = addForm(app, path, () => load());

  async function act(d, method, suffix) {
    try {
      await call(method, path + "/" + encodeURIComponent(d.deadline_id) + suffix);
      app.clear();
      load();
    } catch (err) {
      app.show(err);
    }
  }

  function item(d) {
    const buttons = [];
    if (d.status === "proposed") buttons.push(h("button", { class: "secondary confirm", type: "button", onclick: () => act(d, "POST", "/confirm") }, t("dl_confirm")));
    if (d.status === "active") buttons.push(h("button", { class: "secondary done", type: "button", onclick: () => act(d, "POST", "/done") }, t("dl_mark_done")));
    const remove = h("button", { class: "link delete", type: "button" }, t("dl_delete"));
    remove.addEventListener("click", () => {
      if (remove.dataset.armed) act(d, "DELETE", "");
      else {
        remove.dataset.armed = "1";
        remove.textContent = t("dl_delete_confirm");
      }
    });
    buttons.push(remove);
    return h("li", { class: "deadline " + d.status, "data-id": d.deadline_id },
      h("time", { datetime: d.due }, d.due), " ", h("strong", {}, d.title), " ",
      h("span", { class: "badge" }, t("dl_status_" + d.status)),
      h("div", { class: "hint" }, t("dl_source_" + d.source.kind), d.proposed_by ? " · " + t("dl_proposed_by_" + d.proposed_by) : ""),
      h("details", {}, h("summary", {}, t("dl_how")),
        d.computation ? computationView({ ...d.computation.answer, zone: d.zone }) : h("p", { class: "hint" }, t("dl_by_hand", { zone: d.zone }))),
      h("div", { class: "row" }, buttons));
  }

  async function load() {
    try {
      const r = await call("GET", path);
      replace(list, r.deadlines.length === 0 ? h("li", { class: "empty" }, t("dl_none")) : r.deadlines.map(item));
    } catch (err) {
      app.show(err);
    }
  }
  load();
  return h("section", { "aria-labelledby": "deadlines-title" },
    h("h2", { id: "deadlines-title" }, t("deadlines")), h("p", { class: "hint" }, t("dl_not_advice")), list,
    h("details", {}, h("summary", {}, t("dl_add")), form));
}

// addForm sets a deadline: its title and source, and its day computed from the fields
// of a computation or given as a date in a jurisdiction. One Idempotency-Key per form
// filled, so a retried submit sets one deadline.
function addForm(app, path, added) {
  const title = h("input", { id: "dl-title", name: "title", required: true, maxlength: 200, autocomplete: "off" });
  const source = h("select", { id: "dl-source", name: "source" }, sourceKinds.map((k) => h("option", { value: k }, t("dl_source_" + k))));
  const computed = h("input", { type: "radio", name: "dl-mode", id: "dl-mode-computed", value: "computed", checked: true });
  const byDate = h("input", { type: "radio", name: "dl-mode", id: "dl-mode-date", value: "date" });
  const fields = computeFields("dl-new");
  const due = h("input", { id: "dl-due", name: "due", type: "date", min: "2015-01-01", max: "2099-12-31" });
  const jurisdiction = h("select", { id: "dl-due-jurisdiction", name: "jurisdiction" },
    ["ro", "it"].map((j) => h("option", { value: j }, t("dl_jurisdiction_" + j))));
  const dateFields = h("div", { class: "stack", hidden: true },
    h("label", { for: "dl-due" }, t("dl_due")), due,
    h("label", { for: "dl-due-jurisdiction" }, t("dl_jurisdiction")), jurisdiction);
  const sync = () => {
    fields.el.hidden = !computed.checked;
    dateFields.hidden = computed.checked;
  };
  computed.addEventListener("change", sync);
  byDate.addEventListener("change", sync);
  const form = h("form", { class: "stack", id: "deadline-form", "aria-label": t("dl_add"), novalidate: true },
    h("label", { for: "dl-title" }, t("dl_title")), title,
    h("label", { for: "dl-source" }, t("dl_source")), source,
    h("fieldset", {}, h("legend", {}, t("dl_day")),
      h("label", {}, computed, " ", t("dl_mode_computed")), h("label", {}, byDate, " ", t("dl_mode_date"))),
    fields.el, dateFields,
    h("button", { class: "secondary", type: "submit" }, t("dl_add")));
  let key = newKey();
  form.addEventListener("input", () => { key = newKey(); });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = { title: title.value.trim(), source: { kind: source.value } };
    if (!body.title) return app.show(t("dl_title_required"));
    if (computed.checked) {
      body.computation = fields.body();
      body.source.date = body.computation.from || undefined;
    } else {
      body.due = due.value;
      body.jurisdiction = jurisdiction.value;
    }
    try {
      await call("POST", path, body, { "Idempotency-Key": key });
      key = newKey();
      form.reset();
      sync();
      fields.sync();
      app.clear();
      added();
    } catch (err) {
      app.show(err);
    }
  });
  return form;
}

// The facts Lexflow remembers about the user across cases: those the assistant proposed
// from a closed case, which the user approves or rejects one by one, and those kept,
// which the user edits or deletes; and the button that forgets everything.
import { call } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";

const factsPath = "/v1/me/memory/facts";

// factsSection is the facts' part of the memory page; onForget runs once everything
// remembered (the note too) is erased.
export function factsSection(app, onForget) {
  const list = h("div", { id: "memory-facts", "aria-busy": "true" });
  const forget = h("button", { class: "secondary", id: "forget-all", type: "button" }, t("facts_forget"));
  forget.addEventListener("click", async () => {
    if (!forget.dataset.armed) {
      forget.dataset.armed = "1";
      forget.textContent = t("facts_forget_confirm");
      return;
    }
    try {
      await call("DELETE", "/v1/me/memory");
      app.show(t("facts_forgotten"), "info");
      onForget();
    } catch (err) {
      app.show(err);
    }
    delete forget.dataset.armed;
    forget.textContent = t("facts_forget");
    load();
  });

  async function act(method, path, body) {
    try {
      await call(method, path, body);
      app.clear();
    } catch (err) {
      app.show(err);
    }
    load();
  }

  async function load() {
    try {
      render(await call("GET", factsPath));
    } catch (err) {
      app.show(err);
    }
  }

  function render(res) {
    list.removeAttribute("aria-busy");
    const path = (f) => `${factsPath}/${encodeURIComponent(f.id)}`;
    const proposed = res.facts.filter((f) => f.status === "proposed");
    const kept = res.facts.filter((f) => f.status === "kept");
    replace(list,
      h("h3", { id: "facts-proposed-title" }, t("facts_proposed")),
      proposed.length
        ? h("ul", { class: "facts", id: "facts-proposed", "aria-labelledby": "facts-proposed-title" }, proposed.map((f) =>
          h("li", { "data-fact": f.id }, h("p", { class: "fact-text" }, f.text),
            h("button", { class: "primary approve", type: "button", onclick: () => act("POST", path(f) + "/approve") }, t("fact_approve")),
            h("button", { class: "secondary reject", type: "button", onclick: () => act("POST", path(f) + "/reject") }, t("fact_reject")))))
        : h("p", { class: "hint" }, t("facts_none_proposed")),
      h("h3", { id: "facts-kept-title" }, t("facts_kept")),
      kept.length
        ? h("ul", { class: "facts", id: "facts-kept", "aria-labelledby": "facts-kept-title" }, kept.map((f) => keptItem(f, path(f), res.max_chars)))
        : h("p", { class: "hint" }, t("facts_none_kept")));
  }

  // keptItem is a kept fact with its edit and delete buttons; editing turns it into a
  // small form.
  function keptItem(f, path, maxChars) {
    const item = h("li", { "data-fact": f.id });
    const show = () => replace(item, h("p", { class: "fact-text" }, f.text),
      h("button", { class: "secondary edit", type: "button", onclick: edit }, t("fact_edit")),
      h("button", { class: "secondary delete", type: "button", onclick: () => act("DELETE", path) }, t("fact_delete")));
    function edit() {
      const id = `fact-text-${f.id}`;
      const text = h("textarea", { id, rows: 2, maxlength: maxChars }, f.text);
      const form = h("form", { class: "stack fact-edit" }, h("label", { for: id }, t("fact_text")), text,
        h("button", { class: "primary", type: "submit" }, t("save")),
        h("button", { class: "secondary", type: "button", onclick: show }, t("fact_cancel")));
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        act("PATCH", path, { text: text.value });
      });
      replace(item, form);
      text.focus();
    }
    show();
    return item;
  }

  load();
  return h("section", { class: "card stack", "aria-labelledby": "facts-title" },
    h("h2", { id: "facts-title" }, t("facts_title")), h("p", {}, t("facts_intro")), list, forget);
}

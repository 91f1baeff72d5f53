// What Lexflow remembers about the user, which the assistant reads while memory
// retrieval is on: the facts kept across cases (memoryfacts.js) and a free-text note.
import { call } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { factsSection } from "./memoryfacts.js";

const maxMemory = 4000;

export function memoryPage(app) {
  // The field is read-only until the saved memory arrives, which would overwrite it.
  const text = h("textarea", { id: "memory-text", rows: 10, maxlength: maxMemory, readonly: true });
  const count = h("p", { class: "hint", id: "memory-count", "aria-live": "polite" });
  const saved = h("p", { role: "status" });
  const counter = () => { count.textContent = t("characters_left", { n: maxMemory - [...text.value].length }); };
  text.addEventListener("input", counter);
  const form = h("form", { class: "card stack" },
    h("label", { for: "memory-text" }, t("memory_label")), text, count, h("button", { class: "primary", type: "submit" }, t("save")), saved);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await call("PUT", "/v1/me/memory", { memory: text.value });
      saved.textContent = text.value.trim() ? t("memory_saved") : t("memory_cleared");
    } catch (err) {
      app.show(err);
    }
  });
  const facts = factsSection(app, () => { text.value = ""; counter(); });
  app.main.replaceChildren(h("h1", {}, t("remembers_title")), h("p", {}, t("memory_intro")), facts, form);
  call("GET", "/v1/me/memory").then((m) => { text.value = m.memory || ""; counter(); })
    .catch((err) => app.show(err))
    .finally(() => { text.readOnly = false; });
}

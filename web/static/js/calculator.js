// The deadline calculator (#/deadlines/calculator): any signed-in user has a procedural
// deadline computed by the Romanian or Italian rules and reads how, without storing it.
import { call } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { computationView, computeFields } from "./deadlinecompute.js";

export function calculatorPage(app) {
  const fields = computeFields("calc");
  const result = h("section", { id: "calc-result", "aria-live": "polite", "aria-labelledby": "calc-result-title" });
  const form = h("form", { class: "card stack", id: "calc-form", "aria-labelledby": "calc-title" },
    h("h2", { id: "calc-title" }, t("dl_compute")), fields.el,
    h("button", { class: "primary", type: "submit" }, t("dl_compute")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const answer = await call("POST", "/v1/deadlines/compute", fields.body());
      app.clear();
      replace(result, h("h2", { id: "calc-result-title" }, t("dl_result")), computationView(answer));
    } catch (err) {
      replace(result);
      app.show(err);
    }
  });
  app.main.replaceChildren(
    h("h1", {}, t("dl_calculator")),
    h("p", {}, h("a", { href: "#/deadlines" }, t("my_deadlines"))),
    h("p", { class: "hint" }, t("dl_not_advice")),
    form, result);
}

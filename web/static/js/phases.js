// A case's phases and statuses as the client reads them.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const phaseSteps = ["tiering", "quota", "awaiting_payment", "active", "closed"];

// phaseBadge shows a case's phase and, when it is not simply open, its status.
export function phaseBadge(phase, status) {
  const s = status && status !== "open" ? status : phase;
  return h("span", { class: "badge badge-" + s }, status && status !== "open" ? `${t("phase_" + phase)} · ${t("status_" + status)}` : t("phase_" + phase));
}

// phaseStepsList lists the steps a case goes through, marking the one it is at.
export function phaseStepsList(phase, status) {
  const at = status === "closed" ? "closed" : phase;
  const index = phaseSteps.indexOf(at);
  return h("ol", { class: "steps", "aria-label": t("case_steps") },
    phaseSteps.map((step, i) => h("li", {
      class: i < index ? "done" : i === index ? "current" : "",
      "aria-current": i === index ? "step" : undefined,
    }, t("phase_" + step))));
}

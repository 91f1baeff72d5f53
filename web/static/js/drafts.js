// A case's draft revisions, downloaded through fetch with the token (never a token in
// a URL). reload runs when a draft.ready event arrives.
import { call, download } from "./api.js";
import { h, replace } from "./dom.js";
import { lang, t } from "./i18n.js";

// downloadDraft downloads a revision's PDF as <name>-rev<revision>.pdf.
export function downloadDraft(path, name, revision) {
  return download(path, `${name}-rev${revision}.pdf`);
}

export function draftsSection(app, caseId) {
  const path = "/v1/cases/" + encodeURIComponent(caseId) + "/drafts";
  const list = h("ul", { class: "drafts" });
  let pending = null;
  async function reload() {
    try {
      const r = await call("GET", path);
      const drafts = r.drafts.sort((a, b) => a.draft_name.localeCompare(b.draft_name) || a.revision - b.revision);
      replace(list, drafts.length === 0 ? h("li", { class: "empty" }, t("no_drafts")) : drafts.map((d) =>
        h("li", {}, h("span", {}, `${d.draft_name} · ${t("revision")} ${d.revision}`), " ",
          h("span", { class: "hint" }, new Intl.NumberFormat(lang(), { style: "unit", unit: "kilobyte", maximumFractionDigits: 1 }).format(d.size / 1024)), " ",
          h("button", { class: "link", onclick: () => downloadDraft(d.path, d.draft_name, d.revision).catch((err) => app.show(err)) },
            t("download"), h("span", { class: "visually-hidden" }, ` ${d.draft_name} ${d.revision}`)))));
    } catch (err) {
      app.show(err);
    }
  }
  reload();
  return {
    el: h("section", { "aria-labelledby": "drafts-title" }, h("h2", { id: "drafts-title" }, t("drafts")), h("p", { class: "hint" }, t("drafts_hint")), list),
    // reload lists the drafts again; several calls in a row read once.
    reload() {
      clearTimeout(pending);
      pending = setTimeout(reload, 100);
    },
  };
}

// A case's Romanian court files: the files linked for the court watch to follow, each
// with its latest hearings, and a form to link one by its number and court, checked as
// the API checks them (api/courtfiles.go). Without a courts' portal configured, the
// API refuses links and the section says so.
import { call } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";

// The portal's file numbers (internal/portal/number.go): number/court code/year, an
// attached file's /a1, the portal's stars.
const fileNumber = /^[1-9][0-9]{0,6}\/[1-9][0-9]{0,3}\/(19|20)[0-9]{2}(\/a[1-9][0-9]{0,2}(\.[1-9][0-9]{0,2})?)?\*{0,3}$/;
// A court's code is one word of the portal's Institutie enumeration.
const courtCode = /^[A-Za-z0-9]{3,60}$/;

export function courtFilesSection(app, caseId) {
  const path = "/v1/cases/" + encodeURIComponent(caseId) + "/court-files";
  const list = h("ul", { class: "court-files" });
  const note = h("p", { class: "hint", id: "court-files-note", role: "status" });
  const form = h("form", { class: "stack", id: "court-file-form", "aria-label": t("link_court_file"), novalidate: true },
    h("label", { for: "court-file-number" }, t("file_number")),
    h("input", { id: "court-file-number", name: "numar_dosar", autocomplete: "off", placeholder: "1234/3/2024", maxlength: 32 }),
    h("label", { for: "court-file-court" }, t("court")),
    h("input", { id: "court-file-court", name: "institutie", autocomplete: "off", placeholder: "TribunalulBUCURESTI", maxlength: 60 }),
    h("button", { class: "secondary", type: "submit" }, t("link_court_file")));

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, String(v).trim()]));
    if (!fileNumber.test(data.numar_dosar)) return app.show(t("court_file_bad_number"));
    if (!courtCode.test(data.institutie)) return app.show(t("court_file_bad_court"));
    try {
      await call("POST", path, data);
      form.reset();
      app.clear();
      load();
    } catch (err) {
      if (err.type === "court-portal-not-configured") {
        note.textContent = t("court_portal_off");
        form.hidden = true;
        return;
      }
      app.show(err);
    }
  });

  const hearing = (x) => h("li", {}, h("time", { datetime: x.day }, x.day), x.hour ? " " + x.hour : "",
    x.panel ? h("span", { class: "hint" }, " · " + x.panel) : "", x.result ? h("div", {}, h("strong", {}, x.result)) : "",
    x.summary ? h("div", { class: "hint" }, x.summary) : "");

  async function unlink(f) {
    try {
      await call("DELETE", path + "/" + encodeURIComponent(f.file_id));
      load();
    } catch (err) {
      app.show(err);
    }
  }

  async function load() {
    try {
      const r = await call("GET", path);
      replace(list, r.court_files.length === 0 ? h("li", { class: "empty" }, t("no_court_files")) : r.court_files.map((f) =>
        h("li", { class: "court-file" }, h("code", {}, f.numar_dosar), " ", f.institutie,
          f.stage ? h("span", { class: "hint" }, " · " + f.stage) : "",
          h("button", { class: "link", type: "button", "aria-label": t("unlink_court_file") + " " + f.numar_dosar, onclick: () => unlink(f) }, t("unlink_court_file")),
          f.hearings.length === 0 ? h("p", { class: "hint" }, t("no_hearings_yet")) : h("ul", { class: "hearings" }, f.hearings.map(hearing)))));
    } catch (err) {
      app.show(err);
    }
  }
  load();
  return h("section", { "aria-labelledby": "court-files-title" },
    h("h2", { id: "court-files-title" }, t("court_files")), h("p", { class: "hint" }, t("court_files_hint")), note, list,
    h("details", {}, h("summary", {}, t("link_court_file")), form));
}

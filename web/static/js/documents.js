// A case's documents: dropped or chosen files are uploaded with a progress bar, then
// listed as Lexflow reads them (document.* events reload the list), each with its
// summary, its download, and the text as read next to the text the models read, with
// the parties and personal data replaced by placeholders.
import { call, download, upload } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";

// accepted are the kinds the API reads; it checks the content itself.
const accepted = ".pdf,.docx,.txt,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png,text/plain";

export function documentsSection(app, caseId) {
  const path = "/v1/cases/" + encodeURIComponent(caseId) + "/documents";
  const list = h("ul", { class: "documents" });
  const progress = h("div", { class: "uploads", "aria-live": "polite" });
  const input = h("input", { id: "document-file", type: "file", accept: accepted, multiple: true, class: "visually-hidden" });
  const drop = h("label", { for: "document-file", class: "drop" }, t("doc_drop"));
  const viewer = h("div", { class: "doc-view", hidden: true });
  let pending = null;

  async function send(files) {
    for (const file of files) {
      const bar = h("progress", { max: 1, value: 0, "aria-label": t("doc_uploading", { name: file.name }) });
      const row = h("p", {}, t("doc_uploading", { name: file.name }), " ", bar);
      progress.append(row);
      try {
        await upload(path, file, (f) => { bar.value = f; });
        app.clear();
      } catch (err) {
        app.show(err);
      } finally {
        row.remove();
        reload();
      }
    }
  }
  input.addEventListener("change", () => {
    send([...input.files]);
    input.value = "";
  });
  for (const name of ["dragenter", "dragover"]) {
    drop.addEventListener(name, (e) => {
      e.preventDefault();
      drop.classList.add("over");
    });
  }
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    send([...e.dataTransfer.files]);
  });

  // compare shows a document's pages as read and as the models read them, side by side.
  async function compare(d, from = 1) {
    try {
      const r = await call("GET", d.text + "?from=" + from);
      replace(viewer,
        h("div", { class: "row" }, h("h3", { id: "doc-view-title" }, t("doc_compare_title", { name: d.name })),
          h("button", { class: "link", onclick: () => { viewer.hidden = true; } }, t("close"))),
        h("div", { class: "pages", role: "region", "aria-labelledby": "doc-view-title" },
          h("div", { class: "col-head" }, t("doc_original")), h("div", { class: "col-head" }, t("doc_model")),
          r.text.map((p) => [
            h("pre", { class: "page original", tabindex: "0", "aria-label": t("doc_page_original", { n: p.page }) }, p.original),
            h("pre", { class: "page model", tabindex: "0", "aria-label": t("doc_page_model", { n: p.page }) }, p.model),
          ])),
        r.next_page && h("button", { class: "secondary", onclick: () => compare(d, r.next_page) }, t("doc_more_pages", { n: r.next_page })));
      viewer.hidden = false;
      viewer.scrollIntoView({ block: "nearest" });
    } catch (err) {
      app.show(err);
    }
  }

  function item(d) {
    let state = t("doc_reading");
    if (d.status === "read") state = t("doc_read", { pages: d.pages });
    // The cause is told in the page's language; the technical reason is for support.
    if (d.status === "failed") state = t("doc_failed", { reason: d.cause ? t("doc_cause_" + d.cause) : d.reason });
    const remove = h("button", { class: "link danger" }, t("delete"));
    remove.addEventListener("click", async () => {
      if (!remove.dataset.armed) {
        remove.dataset.armed = "1";
        remove.textContent = t("doc_delete_confirm");
        return;
      }
      try {
        await call("DELETE", d.download);
        viewer.hidden = true;
        reload();
      } catch (err) {
        app.show(err);
      }
    });
    return h("li", { class: "doc " + d.status },
      h("span", { class: "doc-name" }, d.name), " ", h("span", { class: "hint" }, state),
      d.summary && h("p", { class: "summary" }, d.summary),
      h("div", { class: "row" },
        h("button", { class: "link", onclick: () => download(d.download, d.name).catch((err) => app.show(err)) }, t("download"),
          h("span", { class: "visually-hidden" }, " " + d.name)),
        d.status === "read" && h("button", { class: "link", onclick: () => compare(d) }, t("doc_compare"),
          h("span", { class: "visually-hidden" }, " " + d.name)),
        remove));
  }

  async function reload() {
    try {
      const r = await call("GET", path);
      replace(list, r.documents.length === 0 ? h("li", { class: "empty" }, t("no_documents")) : r.documents.map(item));
    } catch (err) {
      app.show(err);
    }
  }
  reload();
  return {
    el: h("section", { "aria-labelledby": "documents-title" },
      h("h2", { id: "documents-title" }, t("documents")), h("p", { class: "hint" }, t("documents_hint")),
      input, drop, progress, list, viewer),
    // reload lists the documents again; several calls in a row read once.
    reload() {
      clearTimeout(pending);
      pending = setTimeout(reload, 100);
    },
  };
}

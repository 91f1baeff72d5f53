// A case's timeline chart (generate_image), fetched with the token (never a token in a
// URL) and shown as an image; reload runs when a timeline.ready event arrives.
import { download, fetchBlob } from "./api.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";

export function timelineSection(app, caseId) {
  const path = "/v1/cases/" + encodeURIComponent(caseId) + "/timeline";
  const body = h("div", { class: "case-timeline" }, h("p", { class: "empty" }, t("no_timeline")));
  let pending = null;
  let shown = null; // the object URL of the image on the page
  async function reload(event) {
    try {
      const png = await fetchBlob(path);
      if (!png) return;
      if (shown) URL.revokeObjectURL(shown);
      shown = URL.createObjectURL(png);
      const alt = event ? t("timeline_alt", { n: event.events }) : t("case_timeline");
      replace(body, [
        h("a", { href: shown, target: "_blank", rel: "noopener" }, h("img", { src: shown, alt, id: "timeline-image" })),
        h("button", { class: "link", onclick: () => download(path, "timeline.png").catch((err) => app.show(err)) }, t("download")),
      ]);
    } catch (err) {
      app.show(err);
    }
  }
  reload();
  return {
    el: h("section", { "aria-labelledby": "timeline-title" }, h("h2", { id: "timeline-title" }, t("case_timeline")), h("p", { class: "hint" }, t("timeline_hint")), body),
    // reload fetches the chart again; several calls in a row read once.
    reload(event) {
      clearTimeout(pending);
      pending = setTimeout(() => reload(event), 100);
    },
  };
}

// Support staff's screens: the queues with how long each case has waited, and a case's
// state (what it waits on, the step it stalled on, its escalation), tickets,
// escalation history, event timeline and transcript, with the resume form: all a
// firm's staff need without the Temporal Web UI. Operator staff also get a link to the
// case's workflow in that UI, which the codec session lets decrypt.
import { call, follow } from "./api.js";
import { openCodecSession } from "./codecsession.js";
import { duration, h, replace, safeURL } from "./dom.js";
import { lang, t } from "./i18n.js";
import { escalationText } from "./transcript.js";

const queues = ["paused_support", "waiting_user", "waiting_budget", "stuck"];
// The queue is read again this often while it is open.
const queueEvery = 15_000;

export function supportPage(app) {
  openCodecSession(app);
  let queue = sessionStorage.getItem("lexflow.queue") || queues[0];
  const tabs = h("div", { class: "tabs", role: "group", "aria-label": t("queues") });
  const body = h("div", { "aria-live": "polite" });
  app.main.replaceChildren(h("h1", {}, t("support_queues")), tabs, body);
  let timer = null;
  let stopped = false;

  async function load() {
    clearTimeout(timer);
    if (stopped) return;
    replace(tabs, queues.map((q) => h("button", {
      type: "button", class: "toggle" + (q === queue ? " on" : ""), "aria-pressed": q === queue ? "true" : "false",
      onclick: () => { queue = q; sessionStorage.setItem("lexflow.queue", q); load(); },
    }, t("queue_" + q))));
    try {
      const r = await call("GET", "/v1/support/cases?status=" + queue);
      replace(body, r.cases.length === 0 ? h("p", { class: "empty" }, t("queue_empty")) :
        h("div", { class: "table-wrap" }, h("table", {},
          h("caption", {}, t("queue_" + queue)),
          h("thead", {}, h("tr", {}, [t("case"), t("tenant"), t("phase"), t("tier"), t("waited")].map((c) => h("th", { scope: "col" }, c)))),
          h("tbody", {}, r.cases.map((c) => h("tr", {},
            h("td", {}, h("a", { href: "#/support/" + encodeURIComponent(c.case_id) }, c.case_id.slice(0, 8))),
            h("td", {}, c.tenant || c.tenant_id || "—"),
            h("td", {}, t("phase_" + c.phase)),
            h("td", {}, c.tier || "—"),
            h("td", {}, duration(c.waited_seconds, lang()))))))));
    } catch (err) {
      app.show(err);
    }
    if (!stopped) timer = setTimeout(load, queueEvery);
  }
  load();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

export function supportCasePage(app, id) {
  openCodecSession(app);
  const ctl = new AbortController();
  const path = "/v1/support/cases/" + encodeURIComponent(id);
  const status = h("p", { role: "status" });
  const state = h("dl", { class: "state" });
  const timeline = h("ol", { class: "timeline" });
  const tickets = h("ul", { class: "tickets" });
  const ladder = h("ol", { class: "ladder" });
  const transcript = h("ol", { class: "records" });
  const note = h("textarea", { id: "resume-note", rows: 3, maxlength: 2000, required: true });
  // A case paused on its tiering (the model gave no tier) gets its tier from support.
  const tier = h("select", { id: "resume-tier" }, h("option", { value: "" }, "—"), [1, 2, 3].map((n) => h("option", { value: String(n) }, String(n))));
  const tierField = h("div", { hidden: true }, h("label", { for: "resume-tier" }, t("resume_tier")), tier);
  const action = (value) => h("label", { class: "check" },
    h("input", { type: "radio", name: "action", value, checked: value === "retry" }), t("resume_" + value));
  const form = h("form", { class: "card stack", "aria-labelledby": "resume-title" },
    h("h2", { id: "resume-title" }, t("resume")),
    h("fieldset", {}, h("legend", {}, t("resume_action")), ["retry", "continue", "close"].map(action)),
    h("label", { for: "resume-note" }, t("resume_note")), note, tierField,
    h("button", { class: "primary", type: "submit" }, t("resume")));
  const ui = app.config.temporal_ui && safeURL(`${app.config.temporal_ui.replace(/\/$/, "")}/namespaces/${encodeURIComponent(app.config.namespace)}/workflows/${encodeURIComponent("case:" + id)}`);

  app.main.replaceChildren(
    h("p", { class: "crumbs" }, h("a", { href: "#/support" }, t("support_queues"))),
    h("h1", {}, t("case"), " ", h("code", {}, id)),
    ui && h("p", {}, h("a", { href: ui, target: "_blank", rel: "noopener noreferrer" }, t("open_in_temporal")),
      h("br"), h("small", {}, t("codec_note"))),
    status,
    h("div", { class: "case-grid" },
      h("div", {},
        h("section", { "aria-labelledby": "state-title" }, h("h2", { id: "state-title" }, t("case_state")), state),
        h("section", { "aria-labelledby": "tickets-title" }, h("h2", { id: "tickets-title" }, t("tickets")), tickets),
        h("section", { "aria-labelledby": "ladder-title" }, h("h2", { id: "ladder-title" }, t("escalations")), ladder),
        h("section", { "aria-labelledby": "timeline-title" }, h("h2", { id: "timeline-title" }, t("timeline")), timeline),
        h("section", { "aria-labelledby": "records-title" }, h("h2", { id: "records-title" }, t("transcript")), transcript)),
      h("aside", { class: "side" }, form)));

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const body = { action: new FormData(form).get("action"), note: note.value.trim() };
      if (!tierField.hidden && tier.value) body.tier = Number(tier.value);
      const r = await call("POST", path + "/resume", body);
      status.textContent = t("resumed", { status: t("status_" + r.status) });
      note.value = "";
      loadTickets();
      loadState();
    } catch (err) {
      app.show(err);
    } finally {
      button.disabled = false;
    }
  });

  async function loadState() {
    try {
      const r = await call("GET", path);
      const s = r.state;
      tierField.hidden = !(s.stalled && s.stalled.step === "tiering");
      const when = (at) => at && h("time", { datetime: at }, new Date(at).toLocaleString(lang()));
      const row = (term, ...def) => [h("dt", {}, term), h("dd", {}, ...def)];
      replace(state, [
        row(t("phase"), t("phase_" + s.phase), " · ", t("status_" + s.status), r.stuck ? [" · ", h("strong", {}, t("queue_stuck"))] : []),
        row(t("waiting_on"), s.waiting_on || "—", " · ", t("since"), " ", when(s.progress_at)),
        row(t("tier"), s.tier || "—"),
        s.stalled && row(t("stalled_on"), s.stalled.step, " · ", when(s.stalled.at), h("p", { class: "tool-error" }, s.stalled.error)),
        s.escalation && row(t("escalations"), h("code", {}, s.escalation.tool), " · ", escalationText(s.escalation),
          s.escalation.error && h("span", { class: "tool-error" }, " — " + s.escalation.error)),
        s.last_resume && row(t("resume"), t("resolution", { action: s.last_resume.action, by: s.last_resume.by, note: s.last_resume.note || "—" })),
      ].flat().filter(Boolean));
    } catch (err) {
      app.show(err);
    }
  }

  async function loadTickets() {
    try {
      const r = await call("GET", path + "/tickets");
      replace(tickets, r.tickets.length === 0 ? h("li", { class: "empty" }, t("no_tickets")) : r.tickets.map((k) =>
        h("li", {}, h("strong", {}, k.ticket_id), " · ", t("ticket_" + k.status), " · ",
          h("time", { datetime: k.created_at }, new Date(k.created_at).toLocaleString(lang())),
          h("p", {}, k.issue_description),
          k.resolution && h("p", { class: "hint" }, t("resolution", { action: k.resolution.action, by: k.resolution.by, note: k.resolution.note || "—" })))));
    } catch (err) {
      app.show(err);
    }
  }

  async function loadTranscript() {
    try {
      const r = await call("GET", path + "/messages");
      replace(transcript, r.messages.map((m) => h("li", { class: "record rec-" + m.role },
        h("span", { class: "who" }, m.role === "tool" && m.tool ? `${m.tool.name} · ${m.tool.status}` : t("role_" + m.role)),
        h("p", {}, m.role === "tool" && m.tool ? (m.tool.error || m.tool.args) : m.content))));
    } catch (err) {
      app.show(err);
    }
  }

  let reread = null;
  loadState();
  loadTickets();
  loadTranscript();
  follow(path + "/events", {
    signal: ctl.signal,
    onEvent: (ev) => {
      const b = ev.data.body || {};
      timeline.append(h("li", {}, h("time", { datetime: ev.data.at }, new Date(ev.data.at).toLocaleString(lang())), " ",
        h("code", {}, ev.event), " ", b.phase ? t("phase_" + b.phase) + " · " + t("status_" + b.status) : (b.tool || b.rung || b.title || "")));
      if (ev.event === "escalation") {
        ladder.append(h("li", {}, h("time", { datetime: ev.data.at }, new Date(ev.data.at).toLocaleString(lang())), " ",
          escalationText(b), b.error && h("span", { class: "tool-error" }, " — " + b.error)));
        if (b.rung === "ticket") loadTickets();
      } else if (ev.event === "status") {
        status.textContent = t("case_now", { phase: t("phase_" + b.phase), status: t("status_" + b.status) });
        loadState();
      } else if (ev.event === "turn.completed" || ev.event === "turn.failed") {
        // A replayed log has many turns: read the transcript once they are in.
        clearTimeout(reread);
        reread = setTimeout(loadTranscript, 300);
      }
    },
    onError: (err) => app.show(err),
  });
  return () => {
    ctl.abort();
    clearTimeout(reread);
  };
}

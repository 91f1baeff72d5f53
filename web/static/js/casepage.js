// One case, for its client: where it is and what happens next, the chat with its
// toggle bar, the documents, parties, deadlines, court files, drafts and timeline. The page follows the case's event stream,
// so it updates by itself when the case moves (a payment, support resuming it).
import { ApiError, call, follow, newKey, sleep } from "./api.js";
import { h, replace } from "./dom.js";
import { lang, t } from "./i18n.js";
import { phaseBadge, phaseStepsList } from "./phases.js";
import { Toggles } from "./toggles.js";
import { Transcript } from "./transcript.js";
import { partiesSection } from "./parties.js";
import { courtFilesSection } from "./courtfiles.js";
import { deadlinesSection } from "./deadlines.js";
import { documentsSection } from "./documents.js";
import { draftsSection } from "./drafts.js";
import { timelineSection } from "./timeline.js";

// Sending a message again after a dropped connection: at most this many tries, with
// the same Idempotency-Key, so the turn runs once.
const sendTries = 5;

// How long a read of the case that found its record lagging behind an event waits
// before each read again, in ms.
const lagWaits = [500, 1000, 2000, 4000];

export function casePage(app, id) {
  const ctl = new AbortController();
  const path = "/v1/cases/" + encodeURIComponent(id);
  // The composer waits while a turn runs. The event log tells it (turnRunning), and so
  // does the case's record as last read (record: busy, and the turns it counts), but
  // the record is written after a turn's end reaches the log: read then, it still says
  // busy for a turn the log has ended, which does not count. A free record that counts
  // the log's latest turn has seen that turn end, though the log never said so (a turn
  // that failed before it could).
  let turnRunning = false;
  let record = null;
  const busy = () => {
    const ended = record && !record.busy && record.turns >= transcript.lastStarted;
    return (turnRunning && !ended) || (!!record?.busy && !transcript.hasEnded(record.turns));
  };
  let sending = false;
  let current = null;

  const title = h("h1", { id: "case-title" }, t("case"));
  const badge = h("span");
  const steps = h("div");
  const next = h("div", { class: "next", "aria-live": "polite" });
  const conn = h("p", { class: "conn", role: "status" });
  const log = h("div", { class: "transcript", role: "log", "aria-label": t("conversation"), tabindex: "0" });
  const bar = h("div", { class: "toggles", role: "group", "aria-label": t("tools") });
  const toggles = new Toggles(bar);
  const input = h("textarea", { id: "message", name: "message", rows: 3, maxlength: 8000, required: true });
  const send = h("button", { class: "primary", type: "submit" }, t("send"));
  const stop = h("button", { class: "danger", type: "button", hidden: true, onclick: cancelTurn }, t("stop"));
  const why = h("p", { class: "hint", id: "composer-why" });
  const composer = h("form", { class: "composer", "aria-label": t("new_message") },
    h("label", { for: "message" }, t("your_message")), input, why, h("div", { class: "row" }, send, stop));
  const drafts = draftsSection(app, id);
  const timeline = timelineSection(app, id);
  const documents = documentsSection(app, id);
  const transcript = new Transcript(log, id, {
    onTurn: (running) => { turnRunning = running; updateComposer(); },
    onError: (err) => app.show(err),
  });
  const closeNote = h("input", { id: "close-note", name: "note", maxlength: 2000 });
  const closeButton = h("button", { class: "secondary", type: "submit" }, t("close_case"));
  const closeForm = h("form", { class: "stack", "aria-labelledby": "close-title" },
    h("p", { class: "hint" }, t("close_hint")), h("label", { for: "close-note" }, t("close_note")), closeNote, closeButton);
  const eraseButton = h("button", { class: "danger", type: "submit", id: "erase-case" }, t("erase_case"));
  const eraseForm = h("form", { class: "stack", "aria-labelledby": "erase-title" },
    h("p", { class: "hint" }, t("erase_hint")), eraseButton);

  app.main.replaceChildren(
    h("div", { class: "case-head" }, h("p", { class: "crumbs" }, h("a", { href: "#/" }, t("my_cases"))), title, badge, steps, next, conn),
    h("div", { class: "case-grid" },
      h("section", { class: "chat", "aria-labelledby": "chat-title" },
        h("h2", { id: "chat-title" }, t("conversation")), log,
        h("h3", { id: "tools-title", class: "small" }, t("tools")), bar, composer),
      h("aside", { class: "side" }, documents.el, partiesSection(app, id), deadlinesSection(app, id), courtFilesSection(app, id), drafts.el, timeline.el,
        h("section", { "aria-labelledby": "close-title" }, h("h2", { id: "close-title" }, t("close_case")), closeForm),
        h("section", { "aria-labelledby": "erase-title" }, h("h2", { id: "erase-title" }, t("erase_case")), eraseForm))));

  composer.addEventListener("submit", (e) => {
    e.preventDefault();
    sendMessage();
  });
  // Closing, and erasing, which cannot be undone, ask twice.
  askTwice(closeForm, closeButton, t("close_confirm"), closeCase);
  askTwice(eraseForm, eraseButton, t("erase_confirm"), eraseCase);
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) composer.requestSubmit();
  });

  function updateComposer() {
    const c = current || {};
    const phase = c.phase;
    const status = c.status;
    let reason = "";
    if (status === "closed") reason = t("why_closed");
    else if (phase === "awaiting_payment") reason = t("why_payment");
    else if (status === "paused_support") reason = t("why_paused");
    else if (status === "waiting_budget") reason = t("why_budget");
    else if (busy()) reason = t("why_busy");
    input.disabled = status === "closed" || phase === "awaiting_payment" || status === "paused_support";
    send.disabled = input.disabled || busy() || sending;
    composer.toggleAttribute("data-sending", sending);
    stop.hidden = !busy();
    why.textContent = reason;
    closeButton.disabled = closeNote.disabled = status === "closed";
  }

  // refresh reads the case and shows it; afterEvent says an event of the log asked it
  // to, and the case's record may lag behind that event (readAgain).
  async function refresh(afterEvent = false) {
    try {
      const c = await call("GET", path);
      if (ctl.signal.aborted) return; // the client has left the page
      // A case whose workflow has recorded no status yet has none.
      const recordedAt = Date.parse(c.state?.updated_at) || 0;
      if (afterEvent && recordedAt < eventAt && lagReads < lagWaits.length) readAgain(lagWaits[lagReads++]);
      current = { ...c, phase: c.state?.phase || c.phase, status: c.state?.status || c.status };
      title.textContent = c.description;
      replace(badge, phaseBadge(current.phase, current.status));
      replace(steps, phaseStepsList(current.phase, current.status));
      if (c.state) record = { busy: !!c.state.busy, turns: c.state.turns || 0 };
      await whatNext(current);
      updateComposer();
    } catch (err) {
      app.show(err);
    }
  }

  async function whatNext(c) {
    const st = c.state || {};
    const parts = [];
    if (st.tier) parts.push(h("p", {}, t("tier_is", { tier: st.tier }), st.justification ? " — " + st.justification : ""));
    if (c.status === "closed") parts.push(h("p", {}, t("next_closed")));
    else if (c.status === "paused_support") parts.push(h("p", {}, t("next_paused")));
    else if (c.status === "waiting_user") parts.push(h("p", {}, t("next_waiting_user")), st.escalation?.question && h("blockquote", {}, st.escalation.question));
    else if (c.status === "waiting_budget") parts.push(h("p", {}, t("next_budget", { at: st.budget?.resume_at ? new Date(st.budget.resume_at).toLocaleString(lang()) : "" })));
    else if (c.phase === "tiering") parts.push(h("p", {}, st.question ? t("next_tiering_question") : t("next_tiering")), st.question && h("blockquote", {}, st.question));
    else if (c.phase === "quota") parts.push(h("p", {}, t("next_quota")));
    else if (c.phase === "awaiting_payment") parts.push(await payment());
    else if (c.phase === "active") parts.push(h("p", {}, c.payment ? t("paid", { reference: c.payment.reference }) : t("next_active")));
    replace(next, parts);
  }

  async function payment() {
    try {
      const price = await call("GET", path + "/price");
      if (!price.due) return h("p", {}, t("payment_confirming"));
      const pay = h("button", { class: "primary", type: "button" }, t("pay_for_case"));
      pay.addEventListener("click", async () => {
        pay.disabled = true;
        try {
          const checkout = await call("POST", path + "/checkout");
          location.assign(checkout.url);
        } catch (err) {
          pay.disabled = false;
          app.show(err);
        }
      });
      return h("div", { class: "pay" }, h("p", {}, t("payment_due", { price: price.price, tier: price.tier })), pay);
    } catch (err) {
      return h("p", {}, err.message);
    }
  }

  async function sendMessage() {
    const message = input.value.trim();
    if (!message || sending || send.disabled) return;
    const key = newKey();
    const body = { message, ...toggles.body() };
    sending = true;
    updateComposer();
    try {
      await post(message, key, body);
    } finally {
      sending = false;
      updateComposer();
      // The answer comes once the case has written its record: read it, for a turn
      // whose end the log never tells.
      if (!ctl.signal.aborted) refresh();
    }
  }

  // post sends a message, again with the same key while only the connection fails.
  async function post(message, key, body) {
    for (let attempt = 1; ; attempt++) {
      try {
        if (attempt === 1) input.value = "";
        await call("POST", path + "/messages", body, { "Idempotency-Key": key });
        return;
      } catch (err) {
        // The turn goes on when only the connection dropped: ask again with the same key.
        if (err instanceof ApiError && err.status === 0 && attempt < sendTries && !ctl.signal.aborted) {
          await sleep(1000 * 2 ** (attempt - 1), ctl.signal);
          if (ctl.signal.aborted) return;
          continue;
        }
        if (!busy() && input.value === "") input.value = message;
        app.show(err);
        return;
      }
    }
  }

  async function cancelTurn() {
    try {
      await call("POST", path + "/turns/current/cancel");
    } catch (err) {
      if (err.type !== "no-turn-running") app.show(err);
    }
  }

  async function closeCase() {
    try {
      await call("POST", path + "/close", { note: closeNote.value.trim() });
      refresh();
    } catch (err) {
      app.show(err);
    }
  }

  // eraseCase erases the case and goes back to the case list, which no longer has it.
  // An erasure still running (202) finishes by itself; a legal hold (409) says why not.
  async function eraseCase() {
    eraseButton.disabled = true;
    try {
      const r = await call("DELETE", path);
      ctl.abort();
      app.go("#/");
      app.show(t(r.status === "erased" ? "erased" : "erasing"), "info");
    } catch (err) {
      eraseButton.disabled = false;
      app.show(err);
    }
  }

  // The workflow writes the case's record after a turn's end and after tiering's
  // question reach the log (and before a status event): a read after one of those
  // that finds the record older than the event, or no record yet, reads it again,
  // later each time, at most lagWaits.length times. eventAt is the time (ms) of the
  // latest such event. It is the worker's clock against the workflow's: with clocks
  // apart, a needed read again is skipped (the page then shows the record it read) or
  // an unneeded one is made, never more than lagWaits.length.
  let refreshing = null;
  let eventAt = 0;
  let lagReads = 0;
  function readAgain(ms) {
    clearTimeout(refreshing);
    refreshing = setTimeout(() => refresh(true), ms);
  }
  function refreshSoon(ev) {
    const followed = ev.event.startsWith("turn.") || (ev.event === "notice" && current?.phase === "tiering");
    if (followed) eventAt = Math.max(eventAt, Date.parse(ev.data.at) || 0);
    lagReads = 0;
    readAgain(200);
  }

  refresh();
  call("GET", "/v1/tools").then((r) => toggles.setTools(r.tools)).catch((err) => app.show(err));
  follow(path + "/events", {
    signal: ctl.signal,
    onEvent: (ev) => {
      transcript.add(ev);
      if (ev.event === "draft.ready") drafts.reload();
      if (ev.event === "timeline.ready") timeline.reload(ev.data.body);
      if (ev.event.startsWith("document.")) documents.reload();
      if (["status", "notice", "turn.completed", "turn.cancelled", "turn.failed", "escalation"].includes(ev.event)) refreshSoon(ev);
      log.scrollTop = log.scrollHeight;
    },
    onState: (s) => { conn.textContent = s === "live" ? "" : t("reconnecting"); conn.className = "conn " + s; },
    onError: (err) => app.show(err),
  });
  return () => {
    ctl.abort();
    clearTimeout(refreshing);
  };
}

// askTwice makes a form ask twice: its first submit arms the button, saying confirm on
// it, and the second runs act.
function askTwice(form, button, confirm, act) {
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (button.dataset.armed) act();
    else {
      button.dataset.armed = "1";
      button.textContent = confirm;
    }
  });
}

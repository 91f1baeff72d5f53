// The chat as the case's event log tells it: each turn's message, its tool calls as
// they start and finish, the answer as it streams, its citations; and the notices,
// escalations and drafts between turns. The log is replayed from its first event, so
// a reloaded page shows what a live one did.
import { h, replace, safeURL } from "./dom.js";
import { downloadDraft } from "./drafts.js";
import { t } from "./i18n.js";

export class Transcript {
  // el is the log's element; onTurn hears when a turn starts (true) or ends (false).
  constructor(el, caseId, { onTurn = () => {}, onError = () => {} } = {}) {
    this.el = el;
    this.caseId = caseId;
    this.turns = new Map();
    // The turns' numbers by turn ID, the numbers of the turns ended, and the latest
    // number started (0 before any turn).
    this.numbers = new Map();
    this.ended = new Set();
    this.lastStarted = 0;
    this.onTurn = onTurn;
    this.onError = onError;
  }

  // turn is the element of a chat turn, made by the turn's first event.
  turn(id) {
    let turn = this.turns.get(id);
    if (!turn) {
      const user = h("div", { class: "msg user" });
      const tools = h("ul", { class: "tool-calls", "aria-label": t("tool_calls") });
      const answer = h("div", { class: "answer" });
      const citations = h("ul", { class: "citations", "aria-label": t("citations") });
      const state = h("p", { class: "turn-state" });
      const el = h("article", { class: "turn", "data-turn": id },
        user, h("div", { class: "msg assistant" }, h("span", { class: "who" }, "Lexflow"), tools, answer, citations, state));
      this.el.append(el);
      turn = { el, user, tools, answer, citations, state, attempt: 0, step: null, running: new Map() };
      this.turns.set(id, turn);
    }
    return turn;
  }

  // hasEnded reports whether the log has told the end of the case's turn number n.
  hasEnded(n) {
    return this.ended.has(n);
  }

  // end records that the log has told turn id's end.
  end(id) {
    if (this.numbers.has(id)) this.ended.add(this.numbers.get(id));
  }

  system(kind, ...children) {
    this.el.append(h("div", { class: "msg system " + kind }, children));
  }

  // add renders one event.
  add(ev) {
    const b = ev.data.body || {};
    const id = ev.data.turn_id;
    // Tiering's model calls, which are no chat turn, publish only these: they show
    // nothing; nor do the reasoner's, whose text is not the answer.
    if ((ev.event === "model.step" || ev.event === "model.retry") && !this.turns.has(id)) return;
    if (ev.event.startsWith("model.") && b.role && b.role !== "assistant") return;
    switch (ev.event) {
      case "turn.started": {
        const turn = this.turn(id);
        this.numbers.set(id, b.turn_no);
        this.lastStarted = Math.max(this.lastStarted, b.turn_no || 0);
        replace(turn.user, h("span", { class: "who" }, t("you")), h("p", {}, b.message));
        replace(turn.state, h("span", { class: "working" }, t("working")));
        this.onTurn(true);
        break;
      }
      case "model.retry": {
        const turn = this.turn(id);
        if (b.attempt < turn.attempt) break;
        turn.attempt = b.attempt;
        if (turn.step) turn.step.textContent = "";
        break;
      }
      case "model.delta": {
        const turn = this.turn(id);
        // Only the latest attempt's text counts: a worker cut off from Temporal may
        // still write an older one's for a moment.
        if (b.attempt < turn.attempt) break;
        if (b.attempt > turn.attempt) {
          turn.attempt = b.attempt;
          if (turn.step) turn.step.textContent = "";
        }
        if (!turn.step) {
          turn.step = h("p", { class: "step" });
          turn.answer.append(turn.step);
        }
        turn.step.textContent += b.text;
        break;
      }
      case "model.step": {
        const turn = this.turn(id);
        if (turn.step && (b.tool_calls || []).length > 0) turn.step.classList.add("interim");
        turn.step = null;
        // The turn's next model call numbers its attempts from 1 again.
        turn.attempt = 0;
        break;
      }
      case "tool.started": {
        const turn = this.turn(id);
        const li = h("li", { class: "tool running" }, h("code", {}, b.tool), " ", h("span", { class: "tool-status" }, t("tool_running")));
        turn.tools.append(li);
        turn.running.set(b.tool, [...(turn.running.get(b.tool) || []), li]);
        break;
      }
      case "tool.finished": {
        const turn = this.turn(id);
        // Calls of one tool finish in the order they started.
        let li = (turn.running.get(b.tool) || []).shift();
        if (!li) {
          li = h("li", {});
          turn.tools.append(li);
        }
        li.className = "tool " + b.status;
        replace(li, h("code", {}, b.tool), " ", h("span", { class: "tool-status" }, t("tool_" + b.status)),
          " ", h("span", { class: "latency" }, `${b.latency_ms} ms`), b.error && h("span", { class: "tool-error" }, " — " + b.error));
        break;
      }
      case "citations":
        this.citations(this.turn(id), b.citations || []);
        break;
      case "turn.completed":
      case "turn.cancelled": {
        // The log's event carries the turn's result as its body.
        const turn = this.turn(id);
        for (const p of turn.answer.querySelectorAll("p.step:not(.interim), p.reply")) p.remove();
        turn.answer.append(h("p", { class: "reply" }, b.reply || ""));
        turn.step = null;
        if ((b.citations || []).length > 0) this.citations(turn, b.citations);
        replace(turn.state, ev.event === "turn.cancelled" ? t("turn_cancelled") : b.timed_out ? t("turn_timed_out") : null);
        this.end(id);
        this.onTurn(false);
        break;
      }
      case "turn.failed": {
        const turn = this.turn(id);
        replace(turn.state, h("span", { class: "failed" }, t("turn_failed", { reason: b.reason || "" })));
        this.end(id);
        this.onTurn(false);
        break;
      }
      case "notice":
        this.system("notice", h("p", {}, b.text));
        break;
      case "escalation":
        this.system("escalation", h("p", {}, escalationText(b)));
        break;
      case "draft.ready":
        this.system("draft", h("p", {}, t("draft_ready", { name: b.draft_name, revision: b.revision }), " ",
          // The token goes only to this case's drafts, whatever the event names.
          String(b.download).startsWith(`/v1/cases/${encodeURIComponent(this.caseId)}/drafts/`) &&
            h("button", { class: "link", onclick: () => downloadDraft(b.download, b.draft_name, b.revision).catch(this.onError) }, t("download")),
          Array.isArray(b.citations_to_check) && b.citations_to_check.length > 0 &&
            h("span", { class: "draft-to-check" }, " " + t("draft_to_check", { list: b.citations_to_check.join("; ") }))));
        break;
    }
  }

  citations(turn, list) {
    replace(turn.citations, list.map((c) => {
      const url = c.url && safeURL(c.url);
      // Citations recorded before statuses carry only verified.
      const status = c.status || (c.verified ? "verified" : "unverified");
      const label = status === "verified" || status === "unverified" ? t(status) : t("cite_" + status);
      return h("li", { class: status },
        h("span", { class: "mark", "aria-hidden": "true" }, citationMarks[status] || "!"), " ",
        h("span", {}, c.text), " ",
        h("span", { class: "cite-state" }, label),
        c.as_of && c.doc_id && [" ", h("span", { class: "cite-as-of" }, "(" + t("cite_as_of", { date: c.as_of }) + ")")],
        status === "misquoted" && c.passage && [" ", h("q", { class: "cite-passage" }, t("cite_reads", { passage: c.passage }))],
        url && [" ", h("a", { href: url, target: "_blank", rel: "noopener noreferrer" }, t("source"))]);
    }));
  }
}

// citationMarks mark a citation's status at a glance; the words say it too.
const citationMarks = { verified: "✓", not_found: "✗", misquoted: "!", repealed: "!", unknown_source: "?", unverified: "!" };

// escalationText says what a rung of the ladder did.
export function escalationText(b) {
  switch (b.rung) {
    case "reasoner":
      return t("esc_reasoner", { tool: b.tool || "" });
    case "ask_user":
      return t("esc_ask_user", { tool: b.tool || "" }) + (b.question ? " " + b.question : "");
    case "ticket":
      return t("esc_ticket", { ticket: b.ticket_id || "" });
    default:
      return b.rung || "";
  }
}

// LEXE's toggle bar: its nine toggles with LEXE's defaults, in LEXE's order, then
// Lexflow's own research tools with a key (legislation_search), and the tools only some
// roles have (Sanctum's admin-only database tool) after them. The
// choices are remembered in this browser and sent with every message.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { icon } from "./icons.js";

// lexe lists the nine toggles: the body key, the tool it switches (none for the two
// retrieval switches), the label, LEXE's icon and, for the switches, the default.
const lexe = [
  { key: "web_search_enabled", tool: "web_search", label: "toggle_web", icon: "globe" },
  { key: "normattiva_enabled", tool: "normattiva_search", label: "toggle_normattiva", icon: "scale" },
  { key: "eurlex_enabled", tool: "eurlex_search", label: "toggle_eurlex", icon: "euro" },
  { key: "infolex_enabled", tool: "infolex_search", label: "toggle_infolex", icon: "gavel" },
  { key: "kb_search_enabled", tool: "kb_search", label: "toggle_kb", icon: "book" },
  { key: "lex_search_enabled", tool: "lex_search", label: "toggle_lex", icon: "search" },
  { key: "lex_search_enriched_enabled", tool: "lex_search_enriched", label: "toggle_lex_enriched", icon: "sparkles", badge: "Analisi" },
  { key: "use_memory_retrieval", label: "toggle_memory", icon: "brain", def: true },
  { key: "use_rag_v3_retrieval", label: "toggle_rag", icon: "database", def: false },
];

// own lists Lexflow's research tools that have a body key of their own, as LEXE's
// tools do, shown after LEXE's.
const own = [
  { key: "legislation_search_enabled", tool: "legislation_search", label: "toggle_legislation", icon: "scale" },
];

// keyed are the toggles a body key switches.
const keyed = lexe.concat(own);

// roleTools are tools without a LEXE key that only some roles see; the listing of
// GET /v1/tools has them only for those roles.
const roleTools = [{ tool: "legal_sql", label: "toggle_database", icon: "database" }];

const storeKey = "lexflow.toggles";

// Toggles holds the bar's state and renders it into el.
export class Toggles {
  constructor(el) {
    this.el = el;
    this.tools = [];
    try {
      this.saved = JSON.parse(localStorage.getItem(storeKey) || "{}");
    } catch {
      this.saved = {}; // a corrupt saved state: the defaults
    }
  }

  // setTools takes GET /v1/tools's listing and draws the bar.
  setTools(tools) {
    this.tools = tools;
    this.render();
  }

  tool(name) {
    return this.tools.find((x) => x.name === name);
  }

  // on says whether a toggle (a LEXE key or a role tool's name) is on.
  on(id) {
    if (id in this.saved) return this.saved[id];
    const def = keyed.find((x) => x.key === id);
    if (def && !def.tool) return def.def;
    const tool = this.tool(def ? def.tool : id);
    return tool ? tool.default_on : false;
  }

  flip(id) {
    this.saved[id] = !this.on(id);
    localStorage.setItem(storeKey, JSON.stringify(this.saved));
    this.render();
  }

  // body is what a message carries: the LEXE keys the bar knows (before the tools are
  // listed, those of no tool only: the API gives the others their defaults, and
  // switches off tools it cannot serve), and a tools list only when a role tool was
  // switched off (a list replaces the defaults, so it names every tool on).
  body() {
    const out = {};
    for (const x of keyed) if (!x.tool || this.tool(x.tool)) out[x.key] = this.on(x.key);
    const off = roleTools.filter((x) => this.tool(x.tool) && !this.on(x.tool)).map((x) => x.tool);
    if (off.length > 0) out.tools = this.tools.filter((x) => x.default_on && !off.includes(x.name)).map((x) => x.name);
    return out;
  }

  render() {
    // A tool the deployment cannot serve is greyed, saying why (GET /v1/tools's
    // unavailable, written for operators).
    const button = (id, x, tool) => {
      const available = !tool || tool.available;
      const on = available && this.on(id);
      const why = tool && !available ? `${t("tool_unavailable")}: ${tool.unavailable || ""}` : "";
      return h("button", {
        type: "button", class: "toggle" + (on ? " on" : ""), "aria-pressed": on ? "true" : "false",
        disabled: !available, "data-toggle": id, title: tool ? (available ? tool.description : why) : "",
        onclick: () => this.flip(id),
      }, icon(x.icon), t(x.label), x.badge && h("span", { class: "badge-analisi" }, x.badge), !available && h("span", { class: "visually-hidden" }, ` (${why})`));
    };
    replace(this.el,
      keyed.filter((x) => !x.tool || this.tool(x.tool)).map((x) => button(x.key, x, x.tool && this.tool(x.tool))),
      roleTools.filter((x) => this.tool(x.tool)).map((x) => button(x.tool, x, this.tool(x.tool))));
  }
}

// The toggle bar's icons, drawn inline as LEXE's bar shows them (its lucide icons:
// Globe, Scale, Gavel, BookOpen, Search, Sparkles, Brain, Database, and its own euro
// sign): 24×24 strokes in the button's text colour, hidden from screen readers, which
// read the label.
const svgNS = "http://www.w3.org/2000/svg";

// shapes are each icon's elements: [tag, attributes].
const shapes = {
  globe: [["circle", { cx: 12, cy: 12, r: 10 }], ["path", { d: "M2 12h20" }],
    ["path", { d: "M12 2a15 15 0 0 1 4 10 15 15 0 0 1-4 10 15 15 0 0 1-4-10 15 15 0 0 1 4-10z" }]],
  scale: [["path", { d: "M12 3v18M7 21h10M3 7h2c2 0 5-1 7-2 2 1 5 2 7 2h2" }],
    ["path", { d: "m2 16 3-8 3 8c-.9.7-1.9 1-3 1s-2.1-.3-3-1zM16 16l3-8 3 8c-.9.7-1.9 1-3 1s-2.1-.3-3-1z" }]],
  euro: [["path", { d: "M18 6.5a7 7 0 1 0 0 11" }], ["path", { d: "M4 10h10M4 14h10" }]],
  gavel: [["path", { d: "m14.5 12.5-8 8a2.1 2.1 0 1 1-3-3l8-8" }], ["path", { d: "m16 16 6-6M8 8l6-6M9 7l8 8M21 11l-8-8" }]],
  book: [["path", { d: "M2 3h6a4 4 0 0 1 4 4v14a3 3 0 0 0-3-3H2zM22 3h-6a4 4 0 0 0-4 4v14a3 3 0 0 1 3-3h7z" }]],
  search: [["circle", { cx: 11, cy: 11, r: 8 }], ["path", { d: "m21 21-4.3-4.3" }]],
  sparkles: [["path", { d: "M12 3l1.9 5.8L20 10.5l-6.1 1.7L12 18l-1.9-5.8L4 10.5l6.1-1.7zM19 17v4M17 19h4" }]],
  brain: [["path", { d: "M9 4a3 3 0 0 0-3 3 3 3 0 0 0-2 5 3 3 0 0 0 2 5 3 3 0 0 0 3 3 3 3 0 0 0 3-3V7a3 3 0 0 0-3-3z" }],
    ["path", { d: "M15 4a3 3 0 0 1 3 3 3 3 0 0 1 2 5 3 3 0 0 1-2 5 3 3 0 0 1-3 3 3 3 0 0 1-3-3" }]],
  database: [["ellipse", { cx: 12, cy: 5, rx: 9, ry: 3 }], ["path", { d: "M3 5v14a9 3 0 0 0 18 0V5M3 12a9 3 0 0 0 18 0" }]],
};

// icon returns the named icon as an <svg> element, or null for a name it does not know.
export function icon(name) {
  const parts = shapes[name];
  if (!parts) return null;
  const svg = document.createElementNS(svgNS, "svg");
  for (const [k, v] of Object.entries({ viewBox: "0 0 24 24", width: 16, height: 16, fill: "none", stroke: "currentColor",
    "stroke-width": 2, "stroke-linecap": "round", "stroke-linejoin": "round", "aria-hidden": "true", class: "icon", "data-icon": name })) {
    svg.setAttribute(k, v);
  }
  for (const [tag, attrs] of parts) {
    const el = document.createElementNS(svgNS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    svg.append(el);
  }
  return svg;
}

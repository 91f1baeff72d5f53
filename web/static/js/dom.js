// A small helper to build elements. Text always goes in as text nodes, never as HTML:
// what the model, a party or another user wrote cannot become markup here.

// h builds an element: h("button", {class: "x", onclick: f, "aria-label": "…"}, "text", child).
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key in el && typeof value !== "string") el[key] = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  append(el, children);
  return el;
}

// append adds children (elements, strings, arrays, nothing) to an element.
function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// replace empties an element and fills it again.
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

// safeURL is url when it is http(s), else undefined: a link the model wrote never runs script.
export function safeURL(url) {
  try {
    const u = new URL(url, location.href);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : undefined;
  } catch {
    return undefined;
  }
}

// duration says a number of seconds as people read it, in the largest whole unit:
// "3 min", "2 h", "1 day".
export function duration(seconds, lang) {
  const units = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
  const [unit, size] = units.find(([, size]) => seconds >= size) || units[3];
  return new Intl.NumberFormat(lang, { style: "unit", unit, unitDisplay: "short" }).format(Math.floor(seconds / size));
}

// Building HTML elements. Handlers are set as properties, never as attributes: the
// page's Content-Security-Policy refuses inline scripts, and attribute handlers are.

export function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node[key] = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of [].concat(children)) {
    if (child === null || child === undefined) continue;
    node.append(child);
  }
  return node;
}

export function button(label, onclick, attributes = {}) {
  return element("button", { type: "button", onclick, ...attributes }, label);
}

// The board picture inside the page: board.svg, fetched with the viewer's credential
// and inserted as SVG elements (not an <img>) so that marks can be drawn on it and
// clicked. The picture's root says how board coordinates map to its own
// (data-origin-x/-y, data-cell or data-hex-size, data-board-width).

const SVG = "http://www.w3.org/2000/svg";

export function svgElement(name, attributes = {}) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

// Replaces the board in `container` with the picture `text`; returns its root.
export function showPicture(container, text) {
  const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = document.importNode(parsed.documentElement, true);
  root.removeAttribute("width");
  root.removeAttribute("height");
  container.replaceChildren(root);
  return root;
}

function number(root, name) {
  return Number(root.getAttribute(name));
}

// Square tiles: the picture rectangle of cell (x, y).
export function cellBox(root, x, y) {
  const size = number(root, "data-cell");
  return { left: number(root, "data-origin-x") + x * size, top: number(root, "data-origin-y") + y * size, size };
}

// Makes room around the board for cells beyond its edges (where a tile may go): the
// viewBox grows to the left, top and bottom, and the panel moves right.
export function makeRoom(root, boxes) {
  const [, , width, height] = root.getAttribute("viewBox").split(" ").map(Number);
  const boardWidth = number(root, "data-board-width");
  const gap = 20;
  const left = Math.max(0, gap - Math.min(...boxes.map((b) => b.left)));
  const top = Math.max(0, gap - Math.min(...boxes.map((b) => b.top)));
  const right = Math.max(0, Math.max(...boxes.map((b) => b.left + b.size)) + gap - boardWidth);
  const bottom = Math.max(0, Math.max(...boxes.map((b) => b.top + b.size)) + gap - height);
  root.setAttribute("viewBox", `${-left} ${-top} ${width + left + right} ${height + top + bottom}`);
  const panel = root.querySelector("g.panel");
  if (panel) panel.setAttribute("transform", `translate(${boardWidth + right} 0)`);
}

// Hexes (pointy-top, axial q, r): points in the board-area group's own frame, where
// hex (0, 0) is centred at the origin.
function hexCentre(size, q, r) {
  return [Math.sqrt(3) * size * (q + r / 2), 1.5 * size * r];
}

export function hexPoint(root, name) {
  const [q, r] = name.split(",").map(Number);
  return hexCentre(number(root, "data-hex-size"), q, r);
}

// A corner "q,r,N" is the top of hex (q, r), "q,r,S" its bottom.
export function cornerPoint(root, name) {
  const size = number(root, "data-hex-size");
  const [q, r, d] = name.split(",");
  const [x, y] = hexCentre(size, Number(q), Number(r));
  return [x, d === "N" ? y - size : y + size];
}

// An edge "q,r,NE|E|SE" is a side of hex (q, r): its middle, and how far a mark drawn
// upright must turn to lie along it (the side is square to its direction from the
// hex's centre).
const EDGE_ANGLES = { NE: -60, E: 0, SE: 60 };

export function edgePoint(root, name) {
  const size = number(root, "data-hex-size");
  const [q, r, d] = name.split(",");
  const [x, y] = hexCentre(size, Number(q), Number(r));
  const angle = (EDGE_ANGLES[d] * Math.PI) / 180;
  const apothem = (Math.sqrt(3) / 2) * size;
  return [x + apothem * Math.cos(angle), y + apothem * Math.sin(angle), EDGE_ANGLES[d]];
}

// A layer for marks over the board: inside the board's own group for hexes (whose
// coordinates the picture moves by the origin), at the root for square cells.
export function markLayer(root, inBoardArea) {
  const parent = inBoardArea ? root.querySelector("g.board-area") : root;
  const layer = svgElement("g", { class: "marks" });
  parent.appendChild(layer);
  return layer;
}

// A mark a person can choose with the mouse or the keyboard (Tab to it, Enter or Space).
export function onChoose(mark, choose) {
  mark.setAttribute("tabindex", "0");
  mark.setAttribute("role", "button");
  mark.addEventListener("click", choose);
  mark.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    choose();
  });
}

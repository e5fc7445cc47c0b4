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

// Replaces the board in `container` with the picture `text`, cut in two: the board
// itself, and the picture's side panel (scores, supplies, what comes next) as a picture
// of its own, beside the board or, on a narrow screen, below it. Returns the board's root.
export function showPicture(container, text) {
  const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = document.importNode(parsed.documentElement, true);
  root.classList.add("picture");
  const panel = cutPanel(root);
  naturalSize(root);
  container.replaceChildren(root, ...(panel ? [panel] : []));
  if (panel) fitPanel(panel);
  return root;
}

function number(root, name) {
  return Number(root.getAttribute(name));
}

// A picture's own size is its viewBox's (one unit, one CSS pixel): the page shows it at
// most so large, smaller where there is less room (play.css), or at a zoom (game.js).
function naturalSize(svg) {
  const [, , width, height] = svg.getAttribute("viewBox").split(" ").map(Number);
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
}

// Moves the picture's panel (drawn right of data-board-width) into a picture of its
// own, drawn at its natural size; the board's picture keeps the board alone.
function cutPanel(root) {
  const group = root.querySelector(":scope > g.panel");
  const boardWidth = number(root, "data-board-width");
  if (!group || !boardWidth) return null;
  const [, , width, height] = root.getAttribute("viewBox").split(" ").map(Number);
  const panelWidth = width - boardWidth;
  group.removeAttribute("transform");
  const panel = svgElement("svg", {
    class: "panel-picture",
    viewBox: `0 0 ${panelWidth} ${height}`,
    "font-family": root.getAttribute("font-family"),
    role: "img",
    "aria-label": "Scores and supplies",
  });
  panel.appendChild(group);
  naturalSize(panel);
  root.setAttribute("viewBox", `0 0 ${boardWidth} ${height}`);
  return panel;
}

// The panel's picture ends below its last line, not at the board's height.
function fitPanel(panel) {
  const box = panel.querySelector("g.panel").getBBox();
  if (box.height === 0) return; // not laid out (a hidden page): keep the board's height
  const [, , width] = panel.getAttribute("viewBox").split(" ").map(Number);
  panel.setAttribute("viewBox", `0 0 ${width} ${Math.ceil(box.y + box.height + 16)}`);
  naturalSize(panel);
}

// Square tiles: the picture rectangle of cell (x, y).
export function cellBox(root, x, y) {
  const size = number(root, "data-cell");
  return { left: number(root, "data-origin-x") + x * size, top: number(root, "data-origin-y") + y * size, size };
}

// Makes room around the board for cells beyond its edges (where a tile may go): the
// viewBox grows on every side a cell lies beyond.
export function makeRoom(root, boxes) {
  const [, , width, height] = root.getAttribute("viewBox").split(" ").map(Number);
  const gap = 20;
  const left = Math.max(0, gap - Math.min(...boxes.map((b) => b.left)));
  const top = Math.max(0, gap - Math.min(...boxes.map((b) => b.top)));
  const right = Math.max(0, Math.max(...boxes.map((b) => b.left + b.size)) + gap - width);
  const bottom = Math.max(0, Math.max(...boxes.map((b) => b.top + b.size)) + gap - height);
  root.setAttribute("viewBox", `${-left} ${-top} ${width + left + right} ${height + top + bottom}`);
  naturalSize(root);
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

// The hexes (q, r) around a place, on or off the board: a corner's three, an edge's
// two (the two it separates), a hex's six neighbours.
export function cornerHexes(name) {
  const [q, r, d] = name.split(",");
  const [cq, cr] = [Number(q), Number(r)];
  return d === "N" ? [[cq, cr], [cq, cr - 1], [cq + 1, cr - 1]] : [[cq, cr], [cq - 1, cr + 1], [cq, cr + 1]];
}

const EDGE_STEPS = { NE: [1, -1], E: [1, 0], SE: [0, 1] };

export function edgeHexes(name) {
  const [q, r, d] = name.split(",");
  const [dq, dr] = EDGE_STEPS[d];
  return [[Number(q), Number(r)], [Number(q) + dq, Number(r) + dr]];
}

export function hexNeighbours(name) {
  const [q, r] = name.split(",").map(Number);
  return [[1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1]].map(([dq, dr]) => [q + dq, r + dr]);
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

// The least a mark measures across on the screen, in CSS pixels: room for a fingertip.
const MARK_PX = 24;

// Draws every mark at least MARK_PX across however small the board is shown, else at its
// own size (data-size): a ring's diameter, a bar's thickness (and its data-length). A bar
// is a rect centred on the origin of its own transform.
export function fitMarks(root) {
  const least = MARK_PX / shownScale(root); // in the picture's units
  if (!Number.isFinite(least)) return; // not laid out
  for (const mark of root.querySelectorAll(".marks .mark")) {
    const size = Math.max(Number(mark.dataset.size), least);
    if (mark.tagName === "circle") {
      mark.setAttribute("r", size / 2);
    } else {
      const length = Math.max(Number(mark.dataset.length), least);
      mark.setAttribute("x", -size / 2);
      mark.setAttribute("width", size);
      mark.setAttribute("y", -length / 2);
      mark.setAttribute("height", length);
    }
  }
}

// How many CSS pixels a unit of the picture is drawn on now.
export function shownScale(root) {
  const shown = root.getBoundingClientRect();
  const { width, height } = root.viewBox.baseVal;
  return Math.min(shown.width / width, shown.height / height);
}

// Scrolls the board's box (never the page) to the first mark when the board, zoomed,
// shows none of them.
export function revealMarks(root) {
  const box = root.parentElement;
  const marks = [...root.querySelectorAll(".marks .mark, .marks .ghost")].map((mark) => mark.getBoundingClientRect());
  if (!box || marks.length === 0) return;
  const view = box.getBoundingClientRect();
  const seen = (r) => r.right > view.left && r.left < view.right && r.bottom > view.top && r.top < view.bottom;
  if (marks.some(seen)) return;
  box.scrollLeft += (marks[0].left + marks[0].right - view.left - view.right) / 2;
  box.scrollTop += (marks[0].top + marks[0].bottom - view.top - view.bottom) / 2;
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

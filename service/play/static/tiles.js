// Placing a tile (Carcassonne, South Seas) by clicking the board: a ghost cell at each
// (x, y) where legal-moves allows the tile; a click on one shows the tile there, and
// further clicks (or the Turn button) cycle through the rotations allowed at that cell
// only; Place sends the placement. The figure step that follows is a list of buttons
// built from legal-moves (commands.js).

import { tileUrl } from "./api.js";
import { cellBox, makeRoom, markLayer, svgElement } from "./board.js";
import { element } from "./dom.js";

// legal-moves lists placements as {tile, placements: [...]} (Carcassonne) or as a
// plain list (South Seas); each is {x, y, rotation, ...}.
function placementsOf(options) {
  return Array.isArray(options) ? options : options.placements;
}

function byCell(placements) {
  const cells = new Map();
  for (const p of placements) {
    const key = `${p.x},${p.y}`;
    if (!cells.has(key)) cells.set(key, { x: p.x, y: p.y, rotations: [] });
    cells.get(key).rotations.push(p.rotation);
  }
  return [...cells.values()];
}

// The tile, turned, drawn in its cell: the tile picture's square (its 100 units from
// (10, 10)) shown through a nested viewport, so its caption stays hidden.
function preview(ruleset, tile, box, rotation) {
  const frame = svgElement("svg", {
    class: "preview",
    x: box.left,
    y: box.top,
    width: box.size,
    height: box.size,
    viewBox: "10 10 100 100",
  });
  frame.appendChild(svgElement("image", { href: tileUrl(ruleset, tile, rotation), width: 120, height: 136 }));
  return frame;
}

export function offerPlacements(root, { ruleset, tile, options, panel, send }) {
  const cells = byCell(placementsOf(options));
  const boxes = cells.map((cell) => cellBox(root, cell.x, cell.y));
  makeRoom(root, boxes);
  const layer = markLayer(root, false);
  let chosen = null;

  function showChoice() {
    layer.querySelectorAll(".preview").forEach((node) => node.remove());
    layer.querySelectorAll(".ghost").forEach((node) => node.classList.toggle("chosen", node === chosen?.ghost));
    if (!chosen) {
      panel.replaceChildren(element("p", {}, `Place ${tile}: click a dashed cell on the board.`));
      return;
    }
    const rotation = chosen.cell.rotations[chosen.turn];
    layer.insertBefore(preview(ruleset, tile, chosen.box, rotation), chosen.ghost);
    const several = chosen.cell.rotations.length > 1;
    panel.replaceChildren(
      element("p", {}, `${tile} at (${chosen.cell.x}, ${chosen.cell.y}), turned ${rotation}°`),
      element("img", { class: "tile", src: tileUrl(ruleset, tile, rotation), alt: `${tile} turned ${rotation}°` }),
      element("div", { class: "buttons" }, [
        several ? element("button", { type: "button", id: "turn-tile", onclick: turn }, "Turn") : null,
        element("button", { type: "button", id: "place-tile", onclick: place }, "Place the tile"),
        element("button", { type: "button", onclick: cancel }, "Choose another cell"),
      ]),
      element("p", { class: "hint" }, several ? `${chosen.cell.rotations.length} rotations fit here.` : "Only this rotation fits here."),
    );
  }

  function turn() {
    chosen.turn = (chosen.turn + 1) % chosen.cell.rotations.length;
    showChoice();
  }

  function cancel() {
    chosen = null;
    showChoice();
  }

  function place() {
    const { x, y, rotations } = chosen.cell;
    send({ type: "place_tile", x, y, rotation: rotations[chosen.turn] });
  }

  cells.forEach((cell, k) => {
    const box = boxes[k];
    const ghost = svgElement("rect", {
      class: "ghost",
      x: box.left + 4,
      y: box.top + 4,
      width: box.size - 8,
      height: box.size - 8,
      "data-x": cell.x,
      "data-y": cell.y,
    });
    ghost.appendChild(svgElement("title")).textContent = `Place ${tile} at (${cell.x}, ${cell.y})`;
    ghost.addEventListener("click", () => {
      if (chosen?.ghost === ghost) return turn();
      chosen = { cell, box, ghost, turn: 0 };
      showChoice();
    });
    layer.appendChild(ghost);
  });
  showChoice();
}

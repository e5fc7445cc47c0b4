// Placing a tile (Carcassonne, South Seas) by clicking the board: a ghost cell at each
// (x, y) where legal-moves allows the tile; a click on one shows the tile there, and
// further clicks (or the Turn button) cycle through the rotations allowed at that cell
// only; Place sends the placement. Then a ring on each spot of the placed tile where a
// figure may go, where the tile picture says a figure stands (its data-spots); the same
// choices are buttons too (commands.js).

import { send as request, tileUrl } from "./api.js";
import { cellBox, makeRoom, markLayer, onChoose, svgElement } from "./board.js";
import { choices } from "./commands.js";
import { button, element } from "./dom.js";

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
  if (cells.length === 0) {
    panel.replaceChildren(element("p", {}, `${tile} fits nowhere.`));
    return;
  }
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
    onChoose(ghost, () => {
      if (chosen?.ghost === ghost) return turn();
      chosen = { cell, box, ghost, turn: 0 };
      showChoice();
    });
    layer.appendChild(ghost);
  });
  showChoice();
}

// Where a figure stands on each spot of `tile` turned `rotation`, in the tile's frame.
async function spotPoints(ruleset, tile, rotation) {
  const text = await (await request(tileUrl(ruleset, tile, rotation))).text();
  const picture = new DOMParser().parseFromString(text, "image/svg+xml");
  const listed = picture.querySelector("g.tile").getAttribute("data-spots") || "";
  return new Map(
    listed
      .split(";")
      .filter(Boolean)
      .map((item) => {
        const [spot, x, y] = item.split(" ");
        return [spot, [Number(x), Number(y)]];
      }),
  );
}

// Rings on the spots of the tile at (x, y) where `commands` (a figure step's
// place_follower or place_islander) may put a figure; a click sends it, or asks which
// figure where several may go there.
export async function offerSpots(root, { ruleset, x, y, commands, who, send, chooser }) {
  const offered = Object.entries(commands).flatMap(([type, options]) => choices(type, options, who) || []);
  const bySpot = new Map();
  for (const choice of offered) {
    if (!choice.command.spot) continue;
    if (!bySpot.has(choice.command.spot)) bySpot.set(choice.command.spot, []);
    bySpot.get(choice.command.spot).push(choice);
  }
  const placed = root.querySelector(`g.tile[data-x="${x}"][data-y="${y}"]`);
  if (bySpot.size === 0 || !placed) return;
  const points = await spotPoints(ruleset, placed.dataset.tile, placed.dataset.rotation);
  const box = cellBox(root, x, y);
  const layer = markLayer(root, false);
  for (const [spot, found] of bySpot) {
    const [px, py] = points.get(spot) ?? [50, 50];
    const ring = svgElement("circle", { class: "mark spot", cx: box.left + px, cy: box.top + py, r: 12, "data-spot": spot });
    ring.appendChild(svgElement("title")).textContent = found.map((choice) => choice.label).join("; ");
    onChoose(ring, () => {
      if (found.length === 1) return send(found[0].command);
      chooser.replaceChildren(...found.map((choice) => button(choice.label, () => send(choice.command))));
    });
    layer.appendChild(ring);
  }
  chooser.replaceChildren(element("p", { class: "hint" }, "Click a ring on the tile to place a figure there, or choose below."));
}

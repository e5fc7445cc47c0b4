// Placing a tile (Carcassonne, South Seas) by clicking the board: a ghost cell at each
// (x, y) where legal-moves allows the tile; a click on one shows the tile there, and
// further clicks (or the Turn button) cycle through the rotations allowed at that cell
// only; Place sends the placement. Then a ring on each spot of the placed tile where a
// figure may go, where the tile picture says a figure stands (its data-spots); the same
// choices are buttons too (commands.js).

import { send as request, tileUrl } from "./api.js";
import { cellBox, fitMarks, makeRoom, markLayer, onChoose, revealMarks, svgElement } from "./board.js";
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
    panel.replaceChildren(element("p", {}, "The tile drawn fits nowhere."));
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
      panel.replaceChildren(element("p", {}, "Place the tile drawn: click a dashed cell on the board."));
      return;
    }
    const rotation = chosen.cell.rotations[chosen.turn];
    layer.insertBefore(preview(ruleset, tile, chosen.box, rotation), chosen.ghost);
    const several = chosen.cell.rotations.length > 1;
    panel.replaceChildren(
      element("p", {}, `The tile at (${chosen.cell.x}, ${chosen.cell.y}), turned ${rotation}°`),
      element("img", { class: "tile", src: tileUrl(ruleset, tile, rotation), alt: `The tile drawn, turned ${rotation}°` }),
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
    ghost.appendChild(svgElement("title")).textContent = `Place the tile at (${cell.x}, ${cell.y})`;
    onChoose(ghost, () => {
      if (chosen?.ghost === ghost) return turn();
      chosen = { cell, box, ghost, turn: 0 };
      showChoice();
    });
    layer.appendChild(ghost);
  });
  revealMarks(root);
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

// Rings on the spots where `commands` may put or take a figure: a figure step's
// place_follower or place_islander on the tile just placed at (x, y), and the commands
// that name their own tile (x, y in the choice: South Seas' retrieve_islander,
// the plague's remove_follower). A click sends the command, or asks which figure where
// several may go there.
export async function offerSpots(root, { ruleset, x, y, commands, who, send, chooser }) {
  const offered = Object.entries(commands).flatMap(([type, options]) => choices(type, options, who) || []);
  const places = new Map(); // "x,y spot" -> {x, y, spot, found: [choice]}
  for (const choice of offered) {
    const { spot } = choice.command;
    const at = { x: choice.command.x ?? x, y: choice.command.y ?? y };
    if (!spot || at.x === undefined) continue;
    const key = `${at.x},${at.y} ${spot}`;
    if (!places.has(key)) places.set(key, { ...at, spot, found: [] });
    places.get(key).found.push(choice);
  }
  // where a figure stands on each spot, for each tile named (its picture says)
  const tiles = new Map();
  for (const place of places.values()) {
    const key = `${place.x},${place.y}`;
    const tile = root.querySelector(`g.tile[data-x="${place.x}"][data-y="${place.y}"]`);
    if (tile && !tiles.has(key)) tiles.set(key, spotPoints(ruleset, tile.dataset.tile, tile.dataset.rotation));
  }
  if (tiles.size === 0) return;
  const layer = markLayer(root, false);
  for (const place of places.values()) {
    const points = tiles.get(`${place.x},${place.y}`);
    if (!points) continue;
    const [px, py] = (await points).get(place.spot) ?? [50, 50];
    const box = cellBox(root, place.x, place.y);
    const ring = svgElement("circle", {
      class: "mark spot",
      cx: box.left + px,
      cy: box.top + py,
      r: 12,
      "data-size": 24,
      "data-spot": place.spot,
      "data-x": place.x,
      "data-y": place.y,
    });
    ring.appendChild(svgElement("title")).textContent = place.found.map((choice) => choice.label).join("; ");
    onChoose(ring, () => {
      if (place.found.length === 1) return send(place.found[0].command);
      chooser.replaceChildren(...place.found.map((choice) => button(choice.label, () => send(choice.command))));
    });
    layer.appendChild(ring);
  }
  fitMarks(root);
  revealMarks(root);
  chooser.replaceChildren(element("p", { class: "hint" }, "Click a ring on the board to choose that spot, or choose below."));
}

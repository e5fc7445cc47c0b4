// Catan's commands that name a place, drawn on the board as marks: a ring at each
// corner where a settlement or city may go, a bar on each path for a road or ship (or
// a harbour), a disc on each hex the robber or pirate may move to. A click sends the
// command; where one place allows several (a road or a ship, a victim to rob), the
// page asks which, with buttons.

import { cornerPoint, edgePoint, fitMarks, hexPoint, markLayer, onChoose, revealMarks, svgElement } from "./board.js";
import { button, element } from "./dom.js";

const WORDS = {
  build_settlement: "Build a settlement",
  build_city: "Build a city",
  build_road: "Build a road",
  build_ship: "Build a ship",
  place_harbour: "Place a harbour",
  move_ship: "Move a ship here",
  move_robber: "Move the robber",
  move_pirate: "Move the pirate",
};
export const ON_BOARD = new Set(Object.keys(WORDS));

// Each place a command may go, with the commands that go there: Map(key -> {kind,
// name, choices: [{command, label}]}).
function placesOf(commands, who, at) {
  const places = new Map();
  const add = (kind, name, command, label) => {
    const key = `${kind} ${name}`;
    if (!places.has(key)) places.set(key, { kind, name, choices: [] });
    places.get(key).choices.push({ command, label });
  };
  for (const [type, options] of Object.entries(commands)) {
    const words = WORDS[type];
    if (!words) continue;
    for (const corner of options.corners || []) add("corner", corner, { type, corner }, `${words} ${at.corner(corner)}`);
    for (const edge of options.edges || []) add("edge", edge, { type, edge }, `${words} ${at.edge(edge)}`);
    for (const move of options.moves || []) add("edge", move.to, { type, ...move }, `Move the ship from ${at.edge(move.from)}`);
    for (const { hex, victims } of options.hexes || []) {
      const there = at.hex(hex);
      if (!victims || victims.length === 0) add("hex", hex, { type, hex }, `${words} to ${there}`);
      for (const victim of victims || []) add("hex", hex, { type, hex, victim }, `${words} to ${there} and rob ${who(victim)}`);
    }
  }
  return places;
}

// "By forest 10 and the sea", "Between hills 6 and pasture 4", "Forest 10" (or the
// place's code): the heading of the buttons that ask which command goes there
function placeWords(at, place) {
  const words = at[place.kind](place.name).replace(/^at /, "");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// A ring on a corner or a hex, a bar along a path; their sizes (data-size, and a bar's
// data-length) grow to a fingertip's where the board is shown small (fitMarks).
function mark(root, place) {
  if (place.kind === "corner") {
    const [x, y] = cornerPoint(root, place.name);
    return svgElement("circle", { class: "mark corner", cx: x, cy: y, r: 11, "data-size": 22, "data-corner": place.name });
  }
  if (place.kind === "edge") {
    const [x, y, angle] = edgePoint(root, place.name);
    return svgElement("rect", {
      class: "mark edge",
      x: -6,
      y: -20,
      width: 12,
      height: 40,
      rx: 5,
      transform: `translate(${x} ${y}) rotate(${angle})`,
      "data-size": 12,
      "data-length": 40,
      "data-edge": place.name,
    });
  }
  const [x, y] = hexPoint(root, place.name);
  return svgElement("circle", { class: "mark hex", cx: x, cy: y + 26, r: 16, "data-size": 32, "data-hex": place.name });
}

export function offerPlaces(root, { commands, who, send, chooser, places: at }) {
  const places = placesOf(commands, who, at);
  if (places.size === 0) return;
  const layer = markLayer(root, true);
  for (const place of places.values()) {
    const shape = mark(root, place);
    shape.appendChild(svgElement("title")).textContent = place.choices.map((c) => c.label).join("; ");
    onChoose(shape, () => {
      if (place.choices.length === 1) return send(place.choices[0].command);
      chooser.replaceChildren(
        element("p", {}, `${placeWords(at, place)}:`),
        ...place.choices.map((choice) => button(choice.label, () => send(choice.command))),
      );
    });
    layer.appendChild(shape);
  }
  fitMarks(root);
  revealMarks(root);
  chooser.replaceChildren(element("p", { class: "hint" }, "Click a highlighted place on the board."));
}

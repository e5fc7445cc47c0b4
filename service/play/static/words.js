// Events and commands in words, for the log beside the board and the buttons: what a
// person reads instead of JSON. Events this page does not know get a plain sentence
// made from their type and simple fields.

import { cornerHexes, edgeHexes, hexNeighbours } from "./board.js";

function humanize(name) {
  return name.replaceAll("_", " ");
}

function list(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function at(data) {
  return `(${data.x}, ${data.y})`;
}

// Catan's places in words, as players name them, from the board the log has shown (the
// hexes of game_started or board_set, and those the fog turns up): a hex by its terrain
// and number ("forest 10"), an intersection and a path by the hexes they touch ("by
// hills 6, forest 11 and the sea", "between fields 9 and pasture 4"). A place on a board
// not seen yet keeps its code ("at 1,-2,N").
export class PlaceNames {
  constructor() {
    this.hexes = new Map(); // "q,r" -> {terrain, number}
  }

  learn(event) {
    const board = ["game_started", "board_set"].includes(event.type) ? event.data?.board : null;
    for (const h of board?.hexes || []) this.hexes.set(h.hex, h);
    if (event.type === "hex_revealed") this.hexes.set(event.data.hex, event.data);
  }

  // a hex's own words, or null off the board and for the sea
  land(q, r) {
    const h = this.hexes.get(`${q},${r}`);
    if (!h || h.terrain === "sea") return null;
    if (h.terrain === "desert") return "the desert";
    if (h.terrain === "fog") return "fog";
    return h.number ? `${h.terrain} ${h.number}` : h.terrain;
  }

  // "forest 10, the desert and the sea" from the hexes around a place
  around(hexes) {
    const land = hexes.map(([q, r]) => this.land(q, r));
    const named = [...new Set(land.filter(Boolean))];
    return land.includes(null) ? [...named, "the sea"] : named;
  }

  hex(name) {
    const [q, r] = name.split(",").map(Number);
    if (this.hexes.size === 0) return name;
    const own = this.land(q, r);
    if (own) return own;
    const shore = hexNeighbours(name).map(([nq, nr]) => this.land(nq, nr)).filter(Boolean);
    return shore.length ? `the sea by ${list([...new Set(shore)])}` : "the open sea";
  }

  corner(name) {
    if (this.hexes.size === 0) return `at ${name}`;
    return `by ${list(this.around(cornerHexes(name)))}`;
  }

  edge(name) {
    if (this.hexes.size === 0) return `at ${name}`;
    const sides = this.around(edgeHexes(name));
    return sides.length === 1 ? `inside ${sides[0]}` : `between ${list(sides)}`;
  }
}

// Places left as their codes: for callers without a board
const CODES = { hex: (name) => name, corner: (name) => `at ${name}`, edge: (name) => `at ${name}` };

// "2 ore, 1 wool" from {ore: 2, wool: 1}
export function cards(counts) {
  const parts = Object.entries(counts || {}).filter(([, n]) => n);
  return parts.length ? parts.map(([what, n]) => `${n} ${what}`).join(", ") : "nothing";
}

// "the road (S, W)" from "road:S,W"
function spotWords(spot) {
  if (!spot) return "";
  const [kind, sides] = spot.split(":");
  return sides ? `the ${kind} (${sides.replaceAll(",", ", ")})` : `the ${kind}`;
}

// "the shepherd of Ada and the shepherd of Bob" from a list of {seat} figures
function shepherds(figures, who) {
  return list((figures || []).map((f) => `${who(f.seat)}'s shepherd`)) || "nobody's shepherd";
}

// "1 shell", "2 shells", "3 fish": South Seas' wares counted
function wares(n, ware) {
  return `${n} ${ware}${n === 1 || ware === "fish" ? "" : "s"}`;
}

// "1 point", "3 points"
function points(n) {
  return `${n} ${n === 1 ? "point" : "points"}`;
}

// "4:05" from 245000 ms
function minutes(ms) {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

// What a rule-book reason says after its colon ("storm: 1 point per follower" -> " (1
// point per follower)"), or nothing.
function because(reason) {
  return reason ? ` (${reason.replace(/^[^:]*: /, "")})` : "";
}

// One sentence per event type; `who(seat)` names a seat.
export const SENTENCES = {
  game_started: (d) => `The game began with ${d.seats} seats.`,
  // (a tile's code means nothing to a person: the board shows the tile)
  tile_drawn: (d, who) => `${who(d.seat)} drew a tile.`,
  tile_set_aside: (d, who) =>
    !d.reason || d.reason === "fits nowhere on the board"
      ? `The tile ${who(d.seat)} drew fits nowhere on the board: it is set aside, and ${who(d.seat)} draws again.`
      : `The tile ${who(d.seat)} drew is set aside: ${d.reason}.`,
  tile_placed: (d, who) => `${who(d.seat)} placed a tile at ${at(d)}${d.rotation ? `, turned ${d.rotation}°` : ""}.`,
  follower_placed: (d, who) =>
    `${who(d.seat)} put a ${humanize(d.figure || "follower")} on ${spotWords(d.spot)} at ${at(d)}.`,
  islander_placed: (d, who) => `${who(d.seat)} put an islander on ${spotWords(d.spot)} at ${at(d)}.`,
  feature_scored: (d, who) => {
    const winners = (d.winners || []).map(who);
    const what = `${d.complete ? "a completed" : "an unfinished"} ${d.kind}`;
    if (!winners.length) return `Nobody scored ${what}.`;
    // the reason repeats the feature before its colon: "completed city: 2 x 2 tiles..."
    const why = d.reason ? ` (${d.reason.replace(/^[^:]*: /, "")})` : "";
    return `${list(winners)} scored ${d.points} for ${what}${why}.`;
  },
  feature_evaluated: (d, who) => {
    const winners = (d.winners || []).map(who);
    const what = `${d.complete ? "a completed" : "an unfinished"} ${d.kind}`;
    if (!winners.length) return `Nobody took the ${d.ware} of ${what}.`;
    const why = d.reason ? ` (${d.reason.replace(/^[^:]*: /, "")})` : "";
    return `${list(winners)} took ${wares(d.wares, d.ware)} from ${what}${why}.`;
  },
  wheel_turned: (d, who) => `${who(d.seat)} turned the wheel from ${humanize(d.from)} to ${humanize(d.to)}.`,
  plague: (d, who) => `The plague: ${list((d.queue || []).map(who))} each take a follower off the land.`,
  follower_removed: (d, who) =>
    `${who(d.seat)} took the ${humanize(d.figure || "follower")} off ${spotWords(d.spot)} at ${at(d)}${d.reason ? ` (${humanize(d.reason)})` : ""}.`,
  islander_retrieved: (d, who) => `${who(d.seat)} took back the islander on ${spotWords(d.spot)} at ${at(d)}.`,
  ship_revealed: (d) => `Ship ${d.ship} turned up: ${d.points} points.`,
  ship_awarded: (d, who) => (d.ship ? `${who(d.seat)} won ship ${d.ship} (${d.points} points) at a market.` : `${who(d.seat)} won no ship: ${d.reason}.`),
  delivery_offered: (d, who) => `${who(d.seat)} may deliver wares to a ship.`,
  wares_delivered: (d, who) => {
    const given = Object.entries(d.wares || {}).filter(([, n]) => n).map(([ware, n]) => wares(n, ware));
    return `${who(d.seat)} delivered ${list(given) || "nothing"} to ship ${d.ship} for ${points(d.points)}.`;
  },
  turn_ended: (d, who) => `${who(d.seat)}'s turn ended; ${who(d.next)} plays next.`,
  settlement_built: (d, who, at) => `${who(d.seat)} built a settlement ${at.corner(d.corner)}.`,
  city_built: (d, who, at) => `${who(d.seat)} built a city ${at.corner(d.corner)}.`,
  road_built: (d, who, at) => `${who(d.seat)} built a road ${at.edge(d.edge)}.`,
  ship_built: (d, who, at) => `${who(d.seat)} built a ship ${at.edge(d.edge)}.`,
  dice_rolled: (d, who) => `${who(d.seat)} rolled ${d.dice.join(" + ")} = ${d.total}.`,
  resources_produced: (d, who) => {
    const gains = Object.entries(d.gains || {}).map(([s, got]) => `${who(Number(s))} got ${cards(got)}`);
    return gains.length ? `${list(gains)}.` : `The roll of ${d.total} produced nothing.`;
  },
  starting_resources: (d, who) =>
    `Starting cards: ${list(Object.entries(d.gains || {}).map(([s, got]) => `${who(Number(s))} ${cards(got)}`))}.`,
  discarded: (d, who) => `${who(d.seat)} discarded ${cards(d.resources)}.`,
  robber_moved: (d, who, at) =>
    `${who(d.seat)} moved the robber to ${at.hex(d.hex)}${d.victim === null || d.victim === undefined ? "" : ` and robbed ${who(d.victim)}`}.`,
  card_stolen: (d, who) => `${who(d.thief)} stole ${d.resource ? `1 ${d.resource}` : "a card"} from ${who(d.victim)}.`,
  development_bought: (d, who) => `${who(d.seat)} bought a development card${d.card ? ` (${humanize(d.card)})` : ""}.`,
  maritime_traded: (d, who) => `${who(d.seat)} traded ${cards(d.give)} with the bank for ${cards(d.get)}.`,
  trade_made: (d, who) => `${who(d.seat)} traded ${cards(d.give)} with ${who(d.with)} for ${cards(d.get)}.`,
  trade_offered: (d, who) => `${who(d.seat)} offers ${cards(d.give)} for ${cards(d.get)}.`,
  trade_proposed: (d, who) => `${who(d.seat)} proposes to ${who(d.to)}: ${cards(d.give)} for ${cards(d.get)}.`,
  trade_answered: (d, who) =>
    d.answer === "counter"
      ? `${who(d.seat)} counters: ${cards(d.give)} for ${cards(d.get)}.`
      : `${who(d.seat)} ${d.answer === "accept" ? "accepts" : "declines"} the offer.`,
  trade_passed: (d, who) => passesWords([d.seat], who),
  trade_cancelled: (d, who) => `${who(d.seat)} called the trade off.`,
  knight_played: (d, who) => `${who(d.seat)} played a knight (${d.knights} so far).`,
  road_building_played: (d, who) => `${who(d.seat)} played road building: ${d.roads} free roads.`,
  year_of_plenty_played: (d, who) => `${who(d.seat)} played year of plenty: ${cards(d.resources)}.`,
  monopoly_played: (d, who) => `${who(d.seat)} played monopoly on ${d.resource}.`,
  longest_road: (d, who) => (d.seat === null ? "Nobody holds the longest road now." : `${who(d.seat)} holds the longest road (${d.length}).`),
  largest_army: (d, who) => `${who(d.seat)} holds the largest army (${d.knights} knights).`,
  game_ended: (d, who) => {
    const won = d.winners && d.winners.length ? `: ${list(d.winners.map(who))} won` : "";
    let scores = "";
    if (Array.isArray(d.scores)) scores = ` Final scores: ${d.scores.map((n, seat) => `${who(seat)} ${n}`).join(", ")}.`;
    // Catan: each seat's points, {seat, total, sources}
    else if (Array.isArray(d.points)) scores = ` Final points: ${d.points.map((p) => `${who(p.seat)} ${p.total}`).join(", ")}.`;
    return `The game is over${won}.${scores}`;
  },
  seat_resigned: (d, who) => `${who(d.seat)} resigned.`,
  // the table: the game's owner and its clocks
  game_abandoned: () => "The game's owner abandoned the game.",
  seat_handed_to_bot: (d, who) => `${who(d.seat)} is played by the ${d.bot} bot from now on.`,
  seat_handed_back: (d, who) => `${who(d.seat)} plays for itself again.`,
  seat_timed_out: (d, who) =>
    `${who(d.seat)} ran out of time: ${{ bot: "a bot plays on for it", skip: "its turn is skipped", forfeit: "it forfeits" }[d.action] ?? humanize(d.action)}.`,
  clock: (d, who) =>
    `Time left: ${(d.remaining_ms || []).map((ms, seat) => `${who(seat)} ${ms === null ? "no limit" : minutes(ms)}`).join(", ")}.`,
  // Carcassonne's expansions
  // which tile went under the hill is secret (tile: null); under: the hill's tile
  tile_hidden: (d, who) => `${who(d.seat)} put a tile face down, unseen, under the hill just placed.`,
  goods_taken: (d, who) => `${who(d.seat)} took goods for closing the city: ${cards(d.goods)}.`,
  flock_to_tend: (d, who) => `${who(d.seat)} tends the flock on ${spotWords(d.spot)} at ${at(d)}.`,
  flock_tended: (d, who) => `${who(d.seat)} chose to ${d.action === "gather" ? "gather the flock" : "let the flock grow"}.`,
  sheep_drawn: (d, who) =>
    d.token === "wolf"
      ? `${who(d.seat)} drew the wolf for the flock at ${at(d)}.`
      : `${who(d.seat)} drew ${d.token} sheep for the flock at ${at(d)}.`,
  flock_scored: (d, who) =>
    `${list((d.winners || []).map(who)) || "Nobody"} scored ${d.points} for a flock of ${d.sheep} sheep${because(d.reason)}.`,
  flock_lost: (d, who) => `A wolf: the flock of ${shepherds(d.shepherds, who)} is lost and the shepherds go home.`,
  figure_returned: (d, who) =>
    `${who(d.seat)}'s ${humanize(d.figure)} went back from ${spotWords(d.spot)} at ${at(d)}${d.reason ? `: ${d.reason}` : ""}.`,
  crown_taken: (d, who) => `${who(d.seat)} put a follower on crown space ${d.space + 1} of the ${humanize(d.sector)}.`,
  crown_scored: (d, who) =>
    (d.winners || []).length
      ? `${list(d.winners.map(who))} scored ${d.points} on the crown of the ${humanize(d.sector)}${because(d.reason)}.`
      : `Nobody scored on the crown of the ${humanize(d.sector)}.`,
  wheel_scored: (d, who) => {
    const gains = (d.points || []).map((n, seat) => [n, seat]).filter(([n]) => n);
    const what = gains.length ? list(gains.map(([n, seat]) => `${who(seat)} ${points(n)}`)) : "nobody scored";
    return `The ${humanize(d.sector)} sector: ${what}${because(d.reason)}.`;
  },
  // Seafarers
  ship_moved: (d, who, at) => `${who(d.seat)} moved a ship from ${at.edge(d.from)} to the path ${at.edge(d.to)}.`,
  pirate_moved: (d, who, at) =>
    `${who(d.seat)} moved the pirate to ${at.hex(d.hex)}${d.victim === null || d.victim === undefined ? "" : ` and robbed ${who(d.victim)}`}.`,
  gold_chosen: (d, who) => `${who(d.seat)} took ${cards(d.resources)} from the gold field.`,
  hex_revealed: (d, who) => {
    const found = `${humanize(d.terrain)}${d.number ? ` ${d.number}` : ""}`;
    const gains = Object.entries(d.gains || {}).map(([s, got]) => `${who(Number(s))} got ${cards(got)}`);
    return `${who(d.seat)} sailed into the fog and found ${found}${gains.length ? `; ${list(gains)}` : ""}.`;
  },
  harbour_placed: (d, who, at) => `${who(d.seat)} placed a harbour ${at.edge(d.edge)}.`,
  harbour_marker_placed: (d, who, at) => `${who(d.seat)} placed a ${humanize(d.type)} harbour ${at.edge(d.edge)}.`,
  gift_taken: (d, who, at) => `${who(d.seat)} took the tribe's gift ${at.edge(d.edge)}: ${humanize(d.gift)}.`,
  village_connected: (d, who, at) =>
    `${who(d.seat)} reached the village ${d.number} ${at.corner(d.village)} and took ${d.cloth} cloth.`,
  cloth_distributed: (d, who, at) => {
    const gains = Object.entries(d.gains || {}).map(([s, n]) => `${who(Number(s))} ${n}`);
    return `The village ${at.corner(d.village)} gave cloth for the roll of ${d.total}: ${gains.length ? list(gains) : "nobody"}.`;
  },
  fleet_moved: (d, _who, at) => `The pirate fleet sailed ${d.steps} ${d.steps === 1 ? "hex" : "hexes"} to ${at.hex(d.to)}.`,
  pirates_attacked: (d, who) => {
    const fight = `The pirates (strength ${d.strength}) attacked ${who(d.seat)} (${d.warships} warships)`;
    if (d.winner === "pirates") return `${fight}: ${who(d.seat)} lost ${cards(d.lost)}.`;
    if (d.winner === "seat") return `${fight}: ${who(d.seat)} beat them off.`;
    return `${fight}: a tie, nothing happens.`;
  },
  warship_converted: (d, who, at) => `${who(d.seat)} turned the ship ${at.edge(d.edge)} into a warship.`,
  fortress_attacked: (d, who) => {
    const fight = `${who(d.seat)} attacked its pirate fortress with ${d.warships} warships (the pirates rolled ${d.die})`;
    if (d.winner === "seat") {
      return `${fight} and won a chit (${d.chits} of 3)${d.conquered ? ": the fortress is conquered" : ""}.`;
    }
    const lost = (d.ships_lost || []).length;
    const ships = `${lost} ${lost === 1 ? "ship" : "ships"}`;
    return d.winner === "pirates" ? `${fight} and lost ${ships}.` : `${fight}: a tie, ${ships} lost.`;
  },
  steal_chosen: (d, who) =>
    d.victim === null ? `${who(d.seat)} steals from nobody.` : `${who(d.seat)} steals from ${who(d.victim)}.`,
  wonder_started: (d, who) => `${who(d.seat)} started the ${humanize(d.wonder)}.`,
  wonder_built: (d, who) => `${who(d.seat)} built level ${d.level} of the ${humanize(d.wonder)} for ${cards(d.cost)}.`,
};

function fallback(type, data, who) {
  const parts = [];
  for (const [key, value] of Object.entries(data || {})) {
    if (key === "seat") continue;
    if (typeof value === "string" || typeof value === "number") parts.push(`${humanize(key)} ${value}`);
  }
  const subject = typeof data?.seat === "number" ? `${who(data.seat)}: ` : "";
  const sentence = `${subject}${humanize(type)}`;
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}${parts.length ? ` (${parts.join(", ")})` : ""}.`;
}

// What a seat is awaited for, as the turn line says it ("Your move: ...", "Waiting for
// Bob: ..."), by the decision's kind.
export const DECISION_WORDS = {
  // Carcassonne and South Seas
  draw_tile: "draw a tile",
  place_tile: "place the tile drawn",
  place_follower: "place a figure, or none",
  place_islander: "place an islander on the new tile or take one back, or neither",
  plague: "take back one follower from the land (the plague)",
  tend_flock: "tend the shepherd's flock",
  draw_sheep: "draw a sheep from the bag",
  reveal_ship: "turn up the next ship",
  deliver: "deliver wares to a ship, or pass",
  choose_ship: "choose one of the tied ships for the market",
  // Catan and Seafarers
  set_board: "set out the board",
  place_settlement: "place a settlement",
  place_road: "place a road (or, where the rules allow, a ship) next to the settlement just placed",
  roll: "roll the dice",
  turn: "build, trade, play a card or end the turn",
  discard: "discard half of the hand",
  move_robber: "move the robber (or the pirate, where there is one)",
  steal: "choose whom to steal a card from",
  choose_gold: "choose the resources of a gold field",
  free_roads: "build the free roads (or ships) of Road Building",
  propose_trade: "propose a trade, or pass",
  respond_trade: "answer a trade offer",
  conclude_trade: "trade with a seat that accepted, or cancel the offer",
  consider_proposal: "accept or decline a proposed trade",
  place_harbour: "place a harbour",
};

export function decisionWords(kind) {
  return DECISION_WORDS[kind] ?? humanize(kind);
}

// `places`: a PlaceNames that has learnt the game's board (Catan), or none: codes
// Seats passing one after another in one line ("Bob, Cy and Di propose no trade."):
// after each roll every other seat may propose a trade, and a line each would bury the
// moves between the rolls.
export function passesWords(seats, who) {
  return `${list(seats.map(who))} ${seats.length === 1 ? "proposes" : "propose"} no trade.`;
}

export function eventWords(event, who, places = CODES) {
  const sentence = SENTENCES[event.type];
  try {
    if (sentence) return sentence(event.data || {}, who, places);
  } catch {
    // an event of another shape than this page knows: said plainly below
  }
  return fallback(event.type, event.data, who);
}

// The label of a button that sends `command`.
export function commandWords(command, who) {
  const { type, ...args } = command;
  switch (type) {
    case "skip":
      return "Place no figure";
    case "roll":
      return "Roll the dice";
    case "end_turn":
      return "End the turn";
    case "place_follower": {
      const figure = humanize(args.figure || "follower");
      return `${figure.charAt(0).toUpperCase()}${figure.slice(1)} on ${spotWords(args.spot)}`;
    }
    case "place_islander":
      return `Islander on ${spotWords(args.spot)}`;
    case "maritime_trade":
      return `Give ${args.rate || ""} ${args.give} to the bank for 1 ${args.get}`.replace("  ", " ");
    case "confirm_trade":
      return `Trade with ${who(args.with)}`;
    case "play_monopoly":
      return `Monopoly on ${args.resource}`;
    case "accept_proposal":
      return "Accept the proposal";
    case "decline_proposal":
      return "Decline the proposal";
    case "pass_trade":
      return "Propose no trade";
    case "cancel_trade":
      return "Call the trade off";
    case "buy_development":
      return "Buy a development card";
    case "retrieve_islander":
      return `Take back the islander on ${spotWords(args.spot)} at ${at(args)}`;
    case "remove_follower":
      return `Remove the follower on ${spotWords(args.spot)} at ${at(args)}`;
    case "start_wonder":
      return `Start the ${humanize(args.wonder)}`;
    case "steal":
      return args.victim === null ? "Steal from nobody" : `Steal a card from ${who(args.victim)}`;
    case "place_on_wheel":
      return `Follower on the wheel: ${humanize(args.sector)}, crown space ${args.space + 1}`;
    default: {
      // a spot and a tile in words ("on the road (S, W) at (8, 5)"), other details by name
      const { spot, x, y, ...rest } = args;
      const details = Object.entries(rest).map(([key, value]) =>
        typeof value === "object" ? `${humanize(key)} ${cards(value)}` : `${humanize(key)} ${value}`,
      );
      const label = humanize(type);
      const where = `${spot ? ` on ${spotWords(spot)}` : ""}${x !== undefined && y !== undefined ? ` at ${at({ x, y })}` : ""}`;
      return `${label.charAt(0).toUpperCase()}${label.slice(1)}${where}${details.length ? `: ${details.join(", ")}` : ""}`;
    }
  }
}

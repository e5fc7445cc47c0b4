// Type-checked against the types openapi-typescript generates from openapi/openapi.yaml
// (tests/e2e/test_generated_clients.py): a client builds commands, reads events, legal
// moves and the state; the three lines marked @ts-expect-error must be refused.
import type { components } from "./tilegames-api";

type Schemas = components["schemas"];

// A client builds commands as the document types them.
const place: Schemas["CarcassonnePlaceTileCommand"] = { type: "place_tile", x: 1, y: 0, rotation: 90 };
const follower: Schemas["CarcassonnePlaceFollowerCommand"] = { type: "place_follower", spot: "city:N" };
const move: Schemas["Move"] = { command: place, decision: "d2" };
const trade: Schemas["CatanOfferTradeCommand"] = { type: "offer_trade", give: { ore: 1 }, get: { wool: 2 } };
const anyCommand: Schemas["Command"][] = [place, follower, trade, { type: "skip" }];

// @ts-expect-error: x is an integer
const wrongX: Schemas["CarcassonnePlaceTileCommand"] = { type: "place_tile", x: "1", y: 0, rotation: 90 };
// @ts-expect-error: a tile turns by quarter turns only
const wrongRotation: Schemas["CarcassonnePlaceTileCommand"] = { type: "place_tile", x: 1, y: 0, rotation: 45 };
// @ts-expect-error: Carcassonne has no roads to build
const wrongGame: Schemas["CarcassonneCommand"] = { type: "build_road", edge: "0,0,N" };

// Events are told apart by their type, and their data is typed.
function say(event: Schemas["CarcassonneEvent"]): string {
  switch (event.type) {
    case "tile_placed":
      return `seat ${event.data.seat} placed ${event.data.tile} at ${event.data.x},${event.data.y}`;
    case "feature_scored":
      return `${event.data.kind}: ${event.data.points} points to ${event.data.winners.join(", ")}`;
    case "game_ended":
      return `scores ${event.data.scores.join("-")}`;
    default:
      return event.type;
  }
}

// An answer says its game's ruleset, which picks the ruleset's own events.
function nextSeats(page: Schemas["EventPage"]): number[] {
  if (page.ruleset !== "catan") return [];
  const events: Schemas["CatanEvent"][] = page.events;
  return events.flatMap((event) => (event.type === "turn_ended" ? [event.data.next] : []));
}

// The legal moves list placements, the state the board.
function firstPlacement(legal: Schemas["CarcassonneLegalCommands"]): Schemas["CarcassonnePlaceTileCommand"] | null {
  const menu = legal.decisions[0]?.commands.place_tile;
  if (!menu) return null;
  const { x, y, rotation } = menu.placements[0];
  return { type: "place_tile", x, y, rotation };
}
function tiles(view: Schemas["CarcassonneView"]): number {
  return view.board.length + view.remaining;
}

export { move, anyCommand, wrongX, wrongRotation, wrongGame, say, nextSeats, firstPlacement, tiles };

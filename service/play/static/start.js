// The start screen: a new game (a ruleset, the options it lists, seats for people and
// bots) or a game to open by its id, with a seat token to play or without to watch.

import * as api from "./api.js";
import { button, element } from "./dom.js";
import { $, clearError, go, showError } from "./page.js";

// Options the page leaves at their defaults: it plays with the server's own draws and
// dice (randomness "internal"), and whole boards or tile lists are not typed in here.
const FIXED_OPTIONS = new Set(["randomness"]);


// An option's value as the form shows it: the ruleset's label for it, if any.
function valueText(spec, value) {
  return spec.labels?.[JSON.stringify(value)] ?? (value === null ? "none" : String(value));
}

function optionInput(name, spec) {
  const id = `option-${name}`;
  const help = { title: spec.description || "" };
  if (spec.type === "boolean") {
    return element("label", help, [element("input", { type: "checkbox", id, checked: spec.default }), ` ${name.replaceAll("_", " ")}`]);
  }
  if (spec.enum) {
    // First the default, left to the game (which may depend on another option, as a
    // scenario's target does); then every value, each sent as chosen.
    const fallback = spec.default_label ?? `${valueText(spec, spec.default)} (the default)`;
    const select = element("select", { id }, [
      element("option", { value: "" }, fallback),
      ...spec.enum.map((value) => element("option", { value: JSON.stringify(value) }, valueText(spec, value))),
    ]);
    return element("label", help, [`${name.replaceAll("_", " ")} `, select]);
  }
  if (spec.type === "array" && spec.items) {
    return element("fieldset", { id, ...help }, [
      element("legend", {}, name.replaceAll("_", " ")),
      ...spec.items.map((item) =>
        element("label", {}, [element("input", { type: "checkbox", value: item, checked: (spec.default || []).includes(item) }), ` ${item.replaceAll("_", " ")} `]),
      ),
    ]);
  }
  return null; // whole objects (a board, a tile list): for API clients, not this form
}

function optionValue(name, spec) {
  const input = $(`option-${name}`);
  if (spec.type === "boolean") return input.checked;
  if (spec.enum) return input.value === "" ? undefined : JSON.parse(input.value);
  return [...input.querySelectorAll("input:checked")].map((box) => box.value);
}

// One seat of the new game (the list numbers them from 0, as the API does): a person
// with a name, or one of the ruleset's bots; the first is a person, the others bots.
function seatRow(ruleset, first) {
  const kind = element("select", { class: "seat-kind", "aria-label": "plays as" }, [
    element("option", { value: "" }, "a person"),
    ...ruleset.bots.map((bot) => element("option", { value: bot, selected: !first && bot === ruleset.bots.at(-1) }, `the ${bot} bot`)),
  ]);
  const name = element("input", { class: "seat-name", value: first ? "Ada" : "", placeholder: "name", "aria-label": "name" });
  const row = element("li", { class: "seat" }, [kind, " ", name]);
  row.append(" ", button("Remove", () => row.remove()));
  return row;
}

// An option's value played with more seats than the list holds (a Seafarers scenario
// is for 3 or 4): bot seats are added up to the fewest it is played with.
function fitSeatsToOptions(ruleset) {
  const list = $("seat-list");
  for (const [name, spec] of Object.entries(ruleset.description.options || {})) {
    const input = $(`option-${name}`);
    if (!spec.seats || !input || input.value === "") continue;
    const counts = spec.seats[input.value];
    while (counts && list.children.length < Math.min(...counts)) list.append(seatRow(ruleset, false));
  }
}

export async function showStart() {
  $("game").hidden = true;
  $("start").hidden = false;
  const { rulesets } = await api.getJson("/v1/rulesets");
  const select = $("ruleset");
  select.replaceChildren(...rulesets.map((r) => element("option", { value: r.name }, r.title)));
  const chosen = () => rulesets.find((r) => r.name === select.value);
  const showRuleset = () => {
    const ruleset = chosen();
    const options = Object.entries(ruleset.description.options || {}).filter(([name]) => !FIXED_OPTIONS.has(name));
    $("options").replaceChildren(element("legend", {}, "Options"), ...options.map(([name, spec]) => optionInput(name, spec)).filter(Boolean));
    $("seats").replaceChildren(
      element("legend", {}, `Seats (${ruleset.min_seats} to ${ruleset.max_seats})`),
      element("ol", { id: "seat-list", start: 0 }, [seatRow(ruleset, true), seatRow(ruleset, false)]),
    );
    for (const [name, spec] of options) {
      if (spec.seats) $(`option-${name}`).addEventListener("change", () => fitSeatsToOptions(ruleset));
    }
  };
  select.onchange = showRuleset;
  showRuleset();
  $("add-seat").onclick = () => $("seat-list").append(seatRow(chosen(), false));
  $("create-form").onsubmit = (event) => {
    event.preventDefault();
    createGame(chosen()).catch(showError);
  };
  $("open-form").onsubmit = (event) => {
    event.preventDefault();
    const gameId = $("open-game").value.trim();
    const token = $("open-token").value.trim();
    openWithToken(gameId, token).catch(showError);
  };
}

async function createGame(ruleset) {
  clearError();
  const options = {};
  for (const [name, spec] of Object.entries(ruleset.description.options || {})) {
    if (FIXED_OPTIONS.has(name) || !$(`option-${name}`)) continue;
    const value = optionValue(name, spec);
    if (spec.enum ? value !== undefined : JSON.stringify(value) !== JSON.stringify(spec.default ?? null)) {
      options[name] = value;
    }
  }
  const seats = [...$("seats").querySelectorAll(".seat")].map((row) => {
    const bot = row.querySelector(".seat-kind").value;
    const name = row.querySelector(".seat-name").value.trim();
    return bot ? { bot, ...(name ? { name } : {}) } : { name: name || "Player" };
  });
  const game = await api.postJson("/v1/games", { ruleset: ruleset.name, options, seats });
  for (const { seat, token } of game.seat_tokens) api.keepSeatToken(game.id, seat, token);
  const first = game.seat_tokens[0];
  go(first ? `game=${game.id}&seat=${first.seat}` : `game=${game.id}`);
}

// A token typed in: which seat of the game it plays is what legal-moves answers.
async function openWithToken(gameId, token) {
  clearError();
  if (!token) {
    go(`game=${gameId}`);
    return;
  }
  const moves = await api.getJson(`/v1/games/${gameId}/legal-moves`, token);
  api.keepSeatToken(gameId, moves.seat, token);
  go(`game=${gameId}&seat=${moves.seat}`);
}

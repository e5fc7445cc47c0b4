// The commands of a decision that are not placed on the board, as buttons and small
// forms built from what legal-moves offers: one button per concrete choice (a figure's
// spot, a trade with the bank, a card to play, "skip", "roll", "end turn"...), and a
// form of counts where the choice is an amount (a discard, gold, an offer).

import { element, button } from "./dom.js";
import { cards, commandWords } from "./words.js";

const RESOURCES = ["brick", "lumber", "wool", "grain", "ore"];
// Lists in a menu whose items are the value of one argument of the command.
const ARGUMENTS = {
  spots: "spot",
  action: "action",
  resources: "resource",
  with: "with",
  tiles: "tile",
  tokens: "token",
  victims: "victim",
  wonders: "wonder",
};
// Of those, the lists a command may also answer with none of their items (null): a
// Pirate Islands roller may steal from nobody.
const OR_NONE = ["victims"];
// Lists whose items are whole argument sets (maritime trades, ship moves...).
const ARGUMENT_SETS = ["trades", "moves"];
// Details a menu adds to a choice to describe it; they are not arguments (the victims a
// robber's hex offers are chosen with the hex, on the board).
const DESCRIPTIONS = ["kind", "sides", "role", "rate", "left", "victims"];

function argumentsOf(item) {
  return Object.fromEntries(Object.entries(item).filter(([key]) => !DESCRIPTIONS.includes(key)));
}

// Every concrete command a menu entry stands for, each with its button's label, or
// null when the choice is an amount (a form) rather than a list.
export function choices(type, options, who) {
  const one = (args, described = args) => ({ command: { type, ...args }, label: commandWords({ type, ...described }, who) });
  if (Array.isArray(options)) return options.map((item) => one(argumentsOf(item), item));
  if (type === "place_follower" && options.figures) {
    return Object.entries(options.figures).flatMap(([figure, spots]) =>
      spots.map((spot) => one({ figure, spot: spot.spot })),
    );
  }
  for (const [key, name] of Object.entries(ARGUMENTS)) {
    if (Array.isArray(options[key])) {
      const items = OR_NONE.includes(key) ? [...options[key], null] : options[key];
      return items.map((item) =>
        item !== null && typeof item === "object" ? one({ [name]: item[name] }) : one({ [name]: item }),
      );
    }
  }
  for (const key of ARGUMENT_SETS) {
    if (Array.isArray(options[key])) return options[key].map((item) => one(argumentsOf(item), item));
  }
  const known = Object.keys(options).filter((key) => key !== "rule");
  return known.length === 0 ? [one({})] : null;
}

// A row of number inputs, one per resource, each at most `most[resource]` (none of a
// resource `most` leaves out), or 19 (all there are) without `most`.
function countInputs(prefix, most) {
  return RESOURCES.map((resource) =>
    element("label", {}, [
      `${resource} `,
      element("input", { type: "number", min: 0, max: most ? (most[resource] ?? 0) : 19, value: 0, name: `${prefix}-${resource}` }),
    ]),
  );
}

function countsOf(form, prefix) {
  const counts = {};
  for (const resource of RESOURCES) {
    const n = Number(form.elements[`${prefix}-${resource}`].value);
    if (n > 0) counts[resource] = n;
  }
  return counts;
}

// What to give (at most what the seat holds) and what to get, for a trade offered,
// proposed or countered; both from the sending seat's side.
function tradeForm(title, mayGive, submit) {
  return {
    title,
    submit,
    fields: () => [element("p", {}, "Give:"), ...countInputs("give", mayGive), element("p", {}, "Get:"), ...countInputs("get")],
    command: (form) => ({ give: countsOf(form, "give"), get: countsOf(form, "get") }),
  };
}

// Forms for the commands whose choice is an amount.
const FORMS = {
  discard: (options) => ({
    title: `Discard ${options.count} of your cards (${cards(options.hand)})`,
    fields: () => countInputs("give", options.hand),
    command: (form) => ({ resources: countsOf(form, "give") }),
  }),
  choose_gold: (options) => ({
    title: `Take ${options.count} from the bank (gold field)`,
    fields: () => countInputs("get", options.bank),
    command: (form) => ({ resources: countsOf(form, "get") }),
  }),
  play_year_of_plenty: (options) => ({
    title: "Year of plenty: take 2 from the bank",
    fields: () => countInputs("get", options.bank),
    command: (form) => ({ resources: countsOf(form, "get") }),
  }),
  offer_trade: (options) => tradeForm("Offer a trade to the other seats", options.may_give),
  propose_trade: (options) => tradeForm("Propose a trade to the seat whose turn it is", options.may_give),
};

// A form sending `type` with the amounts `spec` reads, and `fixed` arguments.
function countsForm(type, spec, send, fixed = {}) {
  const form = element("form", { class: "counts", "data-command": type }, [
    element("p", {}, spec.title),
    ...spec.fields(),
    element("button", { type: "submit" }, spec.submit ?? commandWords({ type }, null)),
  ]);
  form.onsubmit = (event) => {
    event.preventDefault();
    send({ type, ...fixed, ...spec.command(form) });
  };
  return form;
}

// The answer to another seat's offer: accept, decline, or a counter-offer.
function respondControls(options, who, send) {
  const offer = options.offer;
  const controls = [
    element("p", {}, `${who(offer.seat)} offers ${cards(offer.give)} for ${cards(offer.get)}.`),
    ...options.answers
      .filter((answer) => answer !== "counter")
      .map((answer) => button(answer === "accept" ? "Accept the offer" : "Decline", () => send({ type: "respond_trade", answer }))),
  ];
  if (options.answers.includes("counter")) {
    const counter = tradeForm("Or answer with another offer:", options.may_give, "Counter-offer");
    controls.push(countsForm("respond_trade", counter, send, { answer: "counter" }));
  }
  return controls;
}

// What a decision's details say that its commands do not: a proposal's terms.
function decisionWords(decision, details, who) {
  if (decision.kind === "consider_proposal" && details.from !== undefined) {
    return element("p", { class: "terms" }, `${who(details.from)} offers ${cards(details.give)} for ${cards(details.get)}.`);
  }
  return null;
}

// Controls for every command of `decision` but those in `onBoard` (drawn on the board):
// what the decision is about, then "Place no figure" (in view however many choices
// follow), the other buttons, then forms, and ending the turn last of all.
export function commandControls(decision, { who, send, onBoard, details = {} }) {
  const first = [decisionWords(decision, details, who)].filter(Boolean);
  const buttons = [];
  const forms = [];
  const last = [];
  for (const [type, options] of Object.entries(decision.commands)) {
    if (onBoard.has(type)) continue;
    if (type === "respond_trade") {
      buttons.push(...respondControls(options, who, send));
    } else if (FORMS[type]) {
      forms.push(countsForm(type, FORMS[type](options), send));
    } else {
      const found = choices(type, options, who);
      const into = { end_turn: last, skip: first }[type] ?? buttons;
      if (found === null) into.push(element("p", { class: "hint" }, `${commandWords({ type }, who)}: not offered by this page.`));
      else into.push(...found.map(({ command, label }) => button(label, () => send(command), { "data-command": type })));
    }
  }
  return [...first, ...buttons, ...forms, ...last];
}

// The game screen: the board (what the seat may do drawn on it), the controls, the log
// in words, live updates over the events stream, and the replay bar.

import * as api from "./api.js";
import { showPicture } from "./board.js";
import { ON_BOARD as CATAN_ON_BOARD, offerPlaces } from "./catan.js";
import { commandControls } from "./commands.js";
import { element } from "./dom.js";
import { $, clearError, go, showError } from "./page.js";
import { follow } from "./stream.js";
import { offerPlacements, offerSpots } from "./tiles.js";
import { eventWords } from "./words.js";

// What a decision asks, where its kind alone says too little.
const DECISION_WORDS = { turn: "build, trade, play a card or end the turn" };

export class GameScreen {
  constructor(gameId, seat) {
    this.gameId = gameId;
    this.seat = seat;
    this.token = seat === null ? null : api.seatTokens(gameId)[seat] || null;
    this.events = new Map(); // seq -> event, as this viewer may see it
    this.version = 0;
    this.moment = null; // null: now; else the version replayed
    this.drawing = 0; // the latest redraw asked for; older answers are dropped
    this.pending = null; // a redraw waiting for a burst of events to end
    this.shown = null; // what the board and controls show now
    this.stop = () => {};
  }

  who = (seat) => this.summary?.seats?.[seat]?.name ?? `Seat ${seat}`;

  async open() {
    $("start").hidden = true;
    $("game").hidden = false;
    $("board").replaceChildren();
    $("log").replaceChildren();
    $("controls").replaceChildren();
    if (this.seat !== null && !this.token) throw new api.ApiError(`This tab holds no token for seat ${this.seat}: open the game with its token.`);
    this.summary = await api.getJson(`/v1/games/${this.gameId}`, this.token);
    $("game-title").textContent = `${this.summary.ruleset}: game ${this.gameId}`;
    this.showViewers();
    this.addEvents(await api.allEvents(this.gameId, this.token));
    this.bindReplay();
    this.stop = follow(this.gameId, this.token, this.version, {
      onEvent: (event) => this.addEvents([event]),
      onStatus: (status, last, error, wasLost) => this.showConnection(status, last, error, wasLost),
    });
    await this.redraw();
  }

  close() {
    this.stop();
    document.onkeydown = null;
  }

  showViewers() {
    const tokens = api.seatTokens(this.gameId);
    const viewers = [
      element("option", { value: "", selected: this.seat === null }, "a spectator"),
      ...Object.keys(tokens).map((seat) =>
        element("option", { value: seat, selected: Number(seat) === this.seat }, `${this.who(Number(seat))} (seat ${seat})`),
      ),
    ];
    $("viewer").replaceChildren(...viewers);
    $("viewer").onchange = () => {
      const seat = $("viewer").value;
      go(seat === "" ? `game=${this.gameId}` : `game=${this.gameId}&seat=${seat}`);
    };
  }

  showConnection(status, last, error, wasLost) {
    const line = $("connection");
    line.className = status === "lost" ? "warn" : "ok";
    if (status === "lost") line.textContent = `Connection lost (${error.message}); reconnecting after event ${last}…`;
    else if (status === "ended") line.textContent = "The game is over; live updates have ended.";
    else line.textContent = wasLost ? `Reconnected: following live again after event ${last}.` : "Following live.";
  }

  // Events from the stream or from a move's answer; each seq is kept once.
  addEvents(events) {
    let added = false;
    for (const event of events) {
      if (this.events.has(event.seq)) continue;
      this.events.set(event.seq, event);
      this.version = Math.max(this.version, event.seq);
      const words = eventWords(event, this.who);
      $("log").append(element("li", { "data-seq": event.seq, value: event.seq }, words));
      added = true;
    }
    if (!added) return;
    $("moment").max = this.version;
    if (this.moment === null) {
      $("moment").value = this.version;
      this.scheduleRedraw();
    }
    this.showMoment();
  }

  scheduleRedraw() {
    clearTimeout(this.pending);
    this.pending = setTimeout(() => this.redraw().catch(showError), 50);
  }

  async redraw() {
    const drawing = ++this.drawing;
    const at = this.moment;
    const version = at ?? this.version; // the picture shows at least this move
    const [picture, moves] = await Promise.all([
      api.boardPicture(this.gameId, this.token, at),
      at === null && this.token ? api.getJson(`/v1/games/${this.gameId}/legal-moves`, this.token) : null,
      at === null && !this.token ? this.refreshSummary() : null,
    ]);
    if (drawing !== this.drawing) return; // a newer redraw is on its way
    // the same picture and choices as shown: keep the page as it is (and what a person
    // is typing into its forms)
    const shown = `${version} ${JSON.stringify(moves)} ${picture}`;
    if (shown === this.shown) return;
    this.shown = shown;
    const root = showPicture($("board"), picture);
    root.setAttribute("data-version", version);
    this.showTurn(moves?.awaiting ?? this.summary.awaiting);
    $("controls").replaceChildren();
    if (at === null && moves) {
      this.showMoves(root, moves);
    }
  }

  async refreshSummary() {
    this.summary = await api.getJson(`/v1/games/${this.gameId}`, this.token);
  }

  showTurn(awaiting) {
    const line = $("turn");
    if (this.moment !== null) {
      line.textContent = `Replay: the board after move ${this.moment}. Press Live to play on.`;
      return;
    }
    if (!awaiting || awaiting.length === 0) {
      line.textContent = "Nobody is awaited: the game is over.";
      return;
    }
    const parts = awaiting.map((d) => {
      const what = (DECISION_WORDS[d.kind] ?? d.kind.replaceAll("_", " ")) + (d.tile ? ` (${d.tile})` : "");
      return d.seat === this.seat ? `Your move: ${what}` : `Waiting for ${this.who(d.seat)}: ${what}`;
    });
    line.textContent = parts.join("; ");
  }

  showMoves(root, moves) {
    const panel = $("controls");
    const send = (command) => this.send(command, moves.version);
    const ruleset = this.summary.ruleset;
    for (const decision of moves.commands.decisions) {
      const details = moves.awaiting.find((d) => d.id === decision.id) ?? {};
      const onBoard = new Set(CATAN_ON_BOARD);
      const area = element("div", { class: "decision", "data-kind": decision.kind });
      panel.append(area);
      if (decision.commands.place_tile) {
        const options = decision.commands.place_tile;
        const tile = options.tile ?? details.tile;
        const placing = element("div", { class: "placing" });
        area.append(placing);
        offerPlacements(root, { ruleset, tile, options, panel: placing, send });
        onBoard.add("place_tile");
      } else {
        const chooser = element("div", { class: "chooser" });
        area.append(chooser);
        const offer = { commands: decision.commands, who: this.who, send, chooser };
        offerPlaces(root, offer); // Catan's corners, paths and hexes, if the decision names any
        if (details.x !== undefined) {
          // a figure step on the tile just placed at (x, y)
          offerSpots(root, { ruleset, x: details.x, y: details.y, ...offer }).catch(showError);
        }
      }
      area.append(...commandControls(decision, { who: this.who, send, onBoard }));
    }
  }

  async send(command, version) {
    clearError();
    $("controls").querySelectorAll("button").forEach((b) => (b.disabled = true));
    this.shown = null; // the controls changed: the next redraw draws them again
    try {
      const answer = await api.submitMove(this.gameId, this.token, command, version);
      this.addEvents(answer.events);
    } catch (error) {
      showError(error);
    }
    clearTimeout(this.pending); // the redraw the new events asked for is this one
    await this.redraw();
  }

  // -- replay ----------------------------------------------------------------------------

  bindReplay() {
    const slider = $("moment");
    slider.min = 1;
    slider.oninput = () => this.goTo(Number(slider.value));
    $("first").onclick = () => this.goTo(1);
    $("back").onclick = () => this.goTo((this.moment ?? this.version) - 1);
    $("forward").onclick = () => this.goTo((this.moment ?? this.version) + 1);
    $("live").onclick = () => this.goTo(this.version);
    document.onkeydown = (event) => {
      if (event.target.closest("input, select, textarea")) return; // the slider moves itself
      if (event.key === "ArrowLeft") $("back").click();
      else if (event.key === "ArrowRight") $("forward").click();
    };
  }

  goTo(version) {
    const moment = Math.min(Math.max(1, version), this.version);
    this.moment = moment === this.version ? null : moment;
    $("moment").value = moment;
    this.showMoment();
    this.redraw().catch(showError);
  }

  showMoment() {
    const at = this.moment ?? this.version;
    $("moment-label").textContent = this.moment === null ? `Now: move ${at} of ${this.version}` : `Replay: move ${at} of ${this.version}`;
    for (const item of $("log").children) {
      const seq = Number(item.dataset.seq);
      item.classList.toggle("later", seq > at);
      item.classList.toggle("current", seq === at);
    }
    const current = $("log").querySelector(".current");
    if (current) current.scrollIntoView({ block: "nearest" });
  }
}

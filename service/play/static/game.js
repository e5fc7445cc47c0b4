// The game screen: the board (what the seat may do drawn on it), the controls, the log
// in words, live updates over the events stream, and the replay bar.

import * as api from "./api.js";
import { fitMarks, revealMarks, showPicture, shownScale } from "./board.js";
import { ON_BOARD as CATAN_ON_BOARD, offerPlaces } from "./catan.js";
import { commandControls } from "./commands.js";
import { element } from "./dom.js";
import { $, clearConnectionError, clearError, go, showError } from "./page.js";
import { follow } from "./stream.js";
import { offerPlacements, offerSpots } from "./tiles.js";
import { PlaceNames, decisionWords, eventWords, passesWords } from "./words.js";

// How much each zoom button enlarges or shrinks the board, and the bounds of its scale
// (CSS pixels per unit of the picture).
const ZOOM_STEP = 1.5;
const SCALES = [0.2, 4];

export class GameScreen {
  constructor(gameId, seat) {
    this.gameId = gameId;
    this.seat = seat;
    this.token = seat === null ? null : api.seatTokens(gameId)[seat] || null;
    this.events = new Map(); // seq -> event, as this viewer may see it
    this.places = new PlaceNames(); // Catan's places in words, from the board in the log
    this.version = 0;
    this.moment = null; // null: now; else the version replayed
    this.drawing = 0; // the latest redraw asked for; older answers are dropped
    this.pending = null; // a redraw waiting for a burst of events to end
    this.shown = null; // what the board and controls show now
    this.root = null; // the board's picture shown
    this.scale = null; // the board's zoom: CSS pixels per picture unit; null: fit
    this.stop = () => {};
    // the marks keep a fingertip's size whatever size the board is shown at, and the log
    // shows the move shown whatever room the controls leave it
    this.resized = new ResizeObserver(() => fitMarks(this.root));
    this.logResized = new ResizeObserver(() => this.scrollLog());
  }

  // A seat's name, with its number where another seat has the same name.
  who = (seat) => {
    const seats = this.summary?.seats ?? [];
    const name = seats[seat]?.name ?? `Seat ${seat}`;
    return seats.filter((other) => other.name === name).length > 1 ? `${name} (seat ${seat})` : name;
  };

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
    this.bindZoom();
    this.logResized.observe($("log"));
    this.stop = follow(this.gameId, this.token, this.version, {
      onEvent: (event) => this.addEvents([event]),
      onStatus: (status, last, error, wasLost) => this.showConnection(status, last, error, wasLost),
    });
    await this.redraw();
  }

  close() {
    this.stop();
    this.resized.disconnect();
    this.logResized.disconnect();
    document.onkeydown = null;
  }

  showViewers() {
    const tokens = api.seatTokens(this.gameId);
    const viewers = [
      element("option", { value: "", selected: this.seat === null }, "a spectator"),
      ...Object.keys(tokens).map((seat) =>
        element("option", { value: seat, selected: Number(seat) === this.seat }, `${this.summary.seats[seat]?.name ?? "Seat"} (seat ${seat})`),
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
    if (status === "live" && wasLost) {
      // the service answers again: what failed while it did not is read afresh (the
      // board and the controls, even when no event came meanwhile)
      clearConnectionError();
      this.scheduleRedraw();
    }
  }

  // Events from the stream or from a move's answer; each seq is kept once.
  addEvents(events) {
    let added = false;
    for (const event of events) {
      if (this.events.has(event.seq)) continue;
      this.events.set(event.seq, event);
      this.version = Math.max(this.version, event.seq);
      this.places.learn(event);
      this.logEvent(event);
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

  // A line of the log for the event, or, for a seat passing right after others passed,
  // their line grown by it; a line keeps the first and last move it tells of.
  logEvent(event) {
    const log = $("log");
    const last = log.lastElementChild;
    const passing = event.type === "trade_passed";
    if (passing && last?.dataset.passes && Number(last.dataset.seq) === event.seq - 1) {
      const seats = [...JSON.parse(last.dataset.passes), event.data.seat];
      last.dataset.passes = JSON.stringify(seats);
      last.dataset.seq = event.seq;
      last.textContent = passesWords(seats, this.who);
      return;
    }
    const passes = passing ? JSON.stringify([event.data.seat]) : null;
    const words = eventWords(event, this.who, this.places);
    const at = { "data-from": event.seq, "data-seq": event.seq, "data-passes": passes, value: event.seq };
    log.append(element("li", at, words));
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
    this.root = root;
    this.showZoom();
    this.resized.disconnect();
    this.resized.observe(root);
    this.showTurn(moves?.awaiting ?? this.summary.awaiting);
    // the new controls replace the old ones at once: the page never gets shorter meanwhile
    // (which would move a page scrolled down)
    $("controls").replaceChildren(...(at === null && moves ? this.showMoves(root, moves) : []));
    this.scrollLog(); // the controls' new height moved the log
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
      const what = decisionWords(d.kind);
      return d.seat === this.seat ? `Your move: ${what}` : `Waiting for ${this.who(d.seat)}: ${what}`;
    });
    line.textContent = parts.join("; ");
  }

  // What the seat may do: marks on the board, and the controls of each decision (returned).
  showMoves(root, moves) {
    const areas = [];
    const send = (command) => this.send(command, moves.version);
    const ruleset = this.summary.ruleset;
    for (const decision of moves.commands.decisions) {
      const details = moves.awaiting.find((d) => d.id === decision.id) ?? {};
      const onBoard = new Set(CATAN_ON_BOARD);
      const area = element("div", { class: "decision", "data-kind": decision.kind });
      areas.push(area);
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
        const offer = { commands: decision.commands, who: this.who, send, chooser, places: this.places };
        offerPlaces(root, offer); // Catan's corners, paths and hexes, if the decision names any
        if (root.hasAttribute("data-cell")) {
          // square tiles: a figure step on the tile just placed at (x, y), or figures
          // to take back from their own tiles
          offerSpots(root, { ruleset, x: details.x, y: details.y, ...offer }).catch(showError);
        }
      }
      area.append(...commandControls(decision, { who: this.who, send, onBoard, details }));
    }
    return areas;
  }

  // Sends a move, then shows the board and the controls afresh, whatever happened: a
  // refused or failed move is said in words, and so is a failure to read the board
  // again, after which the controls as they were may be used again.
  async send(command, version) {
    clearError();
    const buttons = [...$("controls").querySelectorAll("button")];
    buttons.forEach((b) => (b.disabled = true));
    this.shown = null; // the controls changed: the next redraw draws them again
    let failure = null;
    try {
      const answer = await api.submitMove(this.gameId, this.token, command, version);
      this.addEvents(answer.events);
    } catch (error) {
      failure = error;
    }
    clearTimeout(this.pending); // the redraw the new events asked for is this one
    try {
      await this.redraw();
    } catch (error) {
      buttons.forEach((b) => (b.disabled = false)); // to try again
      failure = failure
        ? new api.ApiError(`${failure.message} The board could not be read again either.`, failure.status, failure.code)
        : new api.ApiError(`The board could not be read again: ${error.message}`, error.status, error.code);
    }
    if (failure) showError(failure);
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
      // the slider moves itself; a form control or a mark on the board keeps its keys
      if (event.target.closest("input, select, textarea, .marks")) return;
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
      const from = Number(item.dataset.from);
      item.classList.toggle("later", from > at);
      item.classList.toggle("current", from <= at && at <= Number(item.dataset.seq));
    }
    this.scrollLog();
  }

  // Scrolls the log, never the page, to show the move shown.
  scrollLog() {
    const log = $("log");
    const current = log.querySelector(".current");
    if (!current) return;
    const inside = log.getBoundingClientRect();
    const item = current.getBoundingClientRect();
    if (item.bottom > inside.bottom) log.scrollTop += item.bottom - inside.bottom;
    else if (item.top < inside.top) log.scrollTop -= inside.top - item.top;
  }

  // -- zoom ------------------------------------------------------------------------------

  bindZoom() {
    const zoom = (factor) => {
      if (!this.root) return;
      this.scale = Math.min(Math.max(shownScale(this.root) * factor, SCALES[0]), SCALES[1]);
      this.showZoom(true);
    };
    $("zoom-in").onclick = () => zoom(ZOOM_STEP);
    $("zoom-out").onclick = () => zoom(1 / ZOOM_STEP);
    $("zoom-fit").onclick = () => {
      this.scale = null;
      this.showZoom(true);
    };
  }

  // Shows the board at its zoom: as large as its box allows, up to its own size (fit), or
  // at `scale`, in its box that then scrolls; a zoom button keeps the middle of the view
  // where it was.
  showZoom(keepMiddle = false) {
    const root = this.root;
    if (!root) return;
    const box = $("board");
    const middle = [
      (box.scrollLeft + box.clientWidth / 2) / box.scrollWidth,
      (box.scrollTop + box.clientHeight / 2) / box.scrollHeight,
    ];
    root.classList.toggle("zoomed", this.scale !== null);
    root.style.width = this.scale === null ? "" : `${Math.round(root.viewBox.baseVal.width * this.scale)}px`;
    $("zoom-fit").disabled = this.scale === null;
    if (!keepMiddle) return;
    box.scrollLeft = middle[0] * box.scrollWidth - box.clientWidth / 2;
    box.scrollTop = middle[1] * box.scrollHeight - box.clientHeight / 2;
    revealMarks(root); // unless that leaves every mark out of view
  }
}

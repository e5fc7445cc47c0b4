// The page: a start screen (start.js) and a game screen (game.js). Where it is lives in
// the address's fragment (#game=<id>&seat=<n>); the API key and seat tokens stay in
// this tab's sessionStorage, never in the address.

import * as api from "./api.js";
import { GameScreen } from "./game.js";
import { $, clearError, showError } from "./page.js";
import { showStart } from "./start.js";

let screen = null;

async function route() {
  if (screen) screen.close();
  screen = null;
  clearError();
  const where = new URLSearchParams(location.hash.slice(1));
  const gameId = where.get("game");
  if (!gameId) return showStart();
  const seat = where.has("seat") ? Number(where.get("seat")) : null;
  screen = new GameScreen(gameId, seat);
  try {
    await screen.open();
  } catch (error) {
    // back to the start screen, where the id, the token or the key can be put right
    screen.close();
    screen = null;
    await showStart();
    throw error;
  }
}

function bindKey() {
  $("api-key").value = api.apiKey();
  $("key-status").textContent = api.apiKey() ? "kept for this tab" : "";
  $("key-form").onsubmit = (event) => {
    event.preventDefault();
    api.setApiKey($("api-key").value.trim());
    $("key-status").textContent = "kept for this tab";
    if (location.hash) route().catch(showError); // a game that needed the key: open it again
  };
  $("error").onclick = clearError;
}

bindKey();
window.addEventListener("hashchange", () => route().catch(showError));
route().catch(showError);

// What every part of the page shares: finding its elements, the error line, and going
// to another place of the page (the address's fragment, which main.js follows).

import { ApiError, isConnectionError } from "./api.js";

export const $ = (id) => document.getElementById(id);

// Goes to a place of the page (#game=<id>&seat=<n>, or "" for the start screen); going
// again where it already is opens it again.
export function go(place) {
  if (location.hash.slice(1) === place) window.dispatchEvent(new HashChangeEvent("hashchange"));
  else location.hash = place;
}

export function showError(error) {
  const line = $("error");
  line.textContent = error instanceof ApiError ? error.message : `Something went wrong: ${error.message}`;
  line.classList.toggle("connection", isConnectionError(error));
  line.hidden = false;
}

export function clearError() {
  $("error").hidden = true;
}

// Clears the error line if what it says is that the service could not be reached.
export function clearConnectionError() {
  if ($("error").classList.contains("connection")) clearError();
}

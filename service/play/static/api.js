// The public /v1 API, as this page calls it: the credential goes in a header (never in
// the URL), and every failure becomes an ApiError whose message is words for a person,
// taken from the problem+json answer's title and detail.

const KEY = "tilegames.key";
// The code of an ApiError for a request that got no answer at all.
const UNREACHABLE = "unreachable";

export class ApiError extends Error {
  constructor(message, status = 0, code = "") {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// A failure of the connection rather than an answer about the request: no answer at all,
// or a gateway's while the service restarts. Reconnecting puts these right.
export function isConnectionError(error) {
  return error instanceof ApiError && (error.code === UNREACHABLE || [502, 503, 504].includes(error.status));
}

export function apiKey() {
  return sessionStorage.getItem(KEY) || "";
}

export function setApiKey(key) {
  sessionStorage.setItem(KEY, key);
}

// The seat tokens of a game, kept for this tab only: {seat: token}.
export function seatTokens(gameId) {
  return JSON.parse(sessionStorage.getItem(`tilegames.tokens.${gameId}`) || "{}");
}

export function keepSeatToken(gameId, seat, token) {
  const tokens = seatTokens(gameId);
  tokens[seat] = token;
  sessionStorage.setItem(`tilegames.tokens.${gameId}`, JSON.stringify(tokens));
}

// The header that says who asks: a seat's token, else the API key.
export function credential(token) {
  if (token) return { "X-Seat-Token": token };
  return apiKey() ? { "X-API-Key": apiKey() } : {};
}

async function failure(response) {
  let problem = {};
  if ((response.headers.get("Content-Type") || "").includes("json")) {
    problem = await response.json().catch(() => ({}));
  }
  const title = problem.title || response.statusText || `HTTP ${response.status}`;
  let message = problem.detail ? `${title}: ${problem.detail}` : title;
  if (problem.rule && problem.rule !== problem.detail) message += ` (${problem.rule})`;
  if (response.status === 429) {
    const wait = response.headers.get("Retry-After");
    message += wait ? `. Try again in ${wait} seconds.` : ". Try again in a moment.";
  }
  return new ApiError(message, response.status, problem.code || "");
}

// fetch, with a network failure said in words too.
export async function send(path, init = {}) {
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError(`The service cannot be reached (${error.message}).`, 0, UNREACHABLE);
  }
  if (!response.ok) throw await failure(response);
  return response;
}

export async function getJson(path, token) {
  const response = await send(path, { headers: { Accept: "application/json", ...credential(token) } });
  return response.json();
}

export async function postJson(path, body, token, extra = {}) {
  const headers = { "Content-Type": "application/json", ...credential(token), ...extra };
  const response = await send(path, { method: "POST", headers, body: JSON.stringify(body) });
  return response.json();
}

// One command for a seat: If-Match names the version it was chosen at, and a fresh
// Idempotency-Key makes a retried request harmless.
export function submitMove(gameId, token, command, version) {
  return postJson(`/v1/games/${gameId}/moves`, { command }, token, {
    "If-Match": `"${version}"`,
    "Idempotency-Key": crypto.randomUUID(),
  });
}

export async function boardPicture(gameId, token, at) {
  const query = at ? `?at=${at}` : "";
  const response = await send(`/v1/games/${gameId}/board.svg${query}`, {
    headers: { Accept: "image/svg+xml", ...credential(token) },
  });
  return response.text();
}

export function tileUrl(ruleset, tile, rotation) {
  const path = tile.split("/").map(encodeURIComponent).join("/");
  return `/v1/rulesets/${ruleset}/tiles/${path}.svg?rotation=${rotation}`;
}

// Every event of a game after `after`, page by page.
export async function allEvents(gameId, token, after = 0) {
  const events = [];
  for (let next = after; next !== null; ) {
    const page = await getJson(`/v1/games/${gameId}/events?after=${next}&limit=1000`, token);
    events.push(...page.events);
    next = page.next_after;
  }
  return events;
}

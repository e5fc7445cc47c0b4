// Following a game live: GET .../events as text/event-stream, read with fetch rather
// than EventSource, because EventSource cannot send the credential header. When the
// stream is lost (or the server ends it after its lifetime) it is opened again with
// Last-Event-ID, so no event is missed or seen twice; onStatus tells the page.

import { credential, send } from "./api.js";

const RETRY_MS = 1000;

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// Splits the stream's text into messages ({id, event, data}) as they complete.
async function readMessages(body, onMessage) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replaceAll("\r\n", "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const message = { id: null, event: "message", data: "" };
      for (const line of block.split("\n")) {
        const colon = line.indexOf(":");
        if (colon <= 0) continue; // a comment (keep-alive) or a blank line
        const field = line.slice(0, colon);
        const text = line.slice(colon + 1).replace(/^ /, "");
        if (field === "data") message.data += text;
        else if (field === "id" || field === "event") message[field] = text;
      }
      if (message.data) onMessage(message);
    }
  }
}

// Follows the game from event `after`; calls onEvent(item) for each event and
// onStatus("live" | "lost" | "ended", lastSeq, error, wasLost), where wasLost says a
// "live" stream replaces one that was lost. Returns a function that stops.
export function follow(gameId, token, after, { onEvent, onStatus }) {
  let last = after;
  let stopped = false;
  let controller = null;
  let wasLost = false;

  async function run() {
    while (!stopped) {
      controller = new AbortController();
      try {
        const headers = { Accept: "text/event-stream", "Last-Event-ID": String(last), ...credential(token) };
        const response = await send(`/v1/games/${gameId}/events`, { headers, signal: controller.signal });
        onStatus("live", last, null, wasLost);
        await readMessages(response.body, (message) => {
          if (message.event === "end") {
            stopped = true;
            onStatus("ended", last);
            return;
          }
          const item = JSON.parse(message.data);
          last = item.seq;
          onEvent(item);
        });
        wasLost = false; // the server closed a healthy stream after its lifetime
      } catch (error) {
        if (stopped) return;
        wasLost = true;
        onStatus("lost", last, error);
      }
      if (!stopped) await sleep(RETRY_MS);
    }
  }

  run();
  return () => {
    stopped = true;
    if (controller) controller.abort();
  };
}

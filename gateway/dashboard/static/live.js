// intentgate dashboard, live state: the tenant's event stream (SSE read with fetch(), so the key stays in a
// header) opened as soon as the page is signed in and resumed after a reload from the last event seen,
// and the refresh of what the open page shows (readings, deliveries), paced to the key's rate budget.
"use strict";

// The last event id seen, kept for this tab so a reload resumes the stream after it (Last-Event-ID).
const LAST_EVENT_ITEM = "intentgate.last_event_id";
// Ids of events already shown, so a replay after a reconnect is not counted twice.
const RECENT_MAX = 100;
// Seconds between stream reconnects: doubled after each failure up to the cap (each connect counts
// against the key's rate limit).
const RETRY_FIRST_S = 2;
const RETRY_MAX_S = 60;
// Seconds between refreshes of the open page while it is visible; an event arriving refreshes it sooner
// (at most once per burst).
const REFRESH_S = 15;
const BURST_MS = 1500;

const live = {
  controller: null,
  retryS: RETRY_FIRST_S,
  timer: null,
  recent: [],
  unseen: 0,
  listeners: new Set(),
};

function liveStatus(text, state) {
  const badge = $("live-status");
  badge.textContent = text;
  badge.dataset.state = state;
}

function lastEventId() {
  return sessionStorage.getItem(LAST_EVENT_ITEM);
}

// An event from the stream: remembered, counted, and handed to whoever listens (the open page).
function arrived(item) {
  if (live.recent.some((known) => known.id === item.id)) return;
  live.recent.unshift(item);
  live.recent.length = Math.min(live.recent.length, RECENT_MAX);
  sessionStorage.setItem(LAST_EVENT_ITEM, item.id);
  live.unseen += 1;
  $("live-count").textContent = live.unseen ? `${plural(live.unseen, "new event")}` : "";
  for (const listener of live.listeners) listener(item);
  refreshSoon();
}

function seenAll() {
  live.unseen = 0;
  $("live-count").textContent = "";
}

function handleFrame(frame) {
  let id = null;
  let data = "";
  for (const line of frame.split("\n")) {
    if (line === ": live") {
      liveStatus("live", "live");
      live.retryS = RETRY_FIRST_S;
    } else if (line.startsWith("id:")) id = line.slice(3).trim();
    else if (line.startsWith("data:")) data += line.slice(5).trim();
  }
  if (id && data) arrived(JSON.parse(data, exactReviver));
}

async function openStream() {
  stopStream();
  const controller = new AbortController();
  live.controller = controller;
  const headers = { Authorization: `Bearer ${sessionStorage.getItem(KEY_ITEM)}`, Accept: "text/event-stream" };
  const resume = lastEventId();
  if (resume) headers["Last-Event-ID"] = resume;
  liveStatus("connecting", "connecting");
  try {
    const response = await fetch(`${API}/agent-events/stream`, { headers, signal: controller.signal, cache: "no-store" });
    noteBudget(response);
    if (!response.ok) {
      const body = await response.json().catch(() => null);
      throw new ApiFailure(response.status, body);
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value.replace(/\r\n?/g, "\n");
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        handleFrame(buffer.slice(0, cut));
        buffer = buffer.slice(cut + 2);
      }
    }
  } catch (error) {
    if (controller.signal.aborted) return;
    if (error instanceof ApiFailure && error.status === 401) return;
    if (error instanceof ApiFailure && error.status === 403) {
      // A key without the agents scope never gets the stream: say so once instead of retrying.
      liveStatus("no live events (key lacks agents)", "offline");
      $("live-status").title = describe(error);
      return;
    }
    $("live-status").title = describe(error);
  }
  if (controller.signal.aborted) return;
  liveStatus(`reconnecting in ${live.retryS} s`, "offline");
  live.timer = setTimeout(openStream, live.retryS * 1000);
  live.retryS = Math.min(live.retryS * 2, RETRY_MAX_S);
}

function stopStream() {
  if (live.controller) live.controller.abort();
  live.controller = null;
  clearTimeout(live.timer);
  liveStatus("offline", "offline");
}

// Where a freshly signed-in tab's stream starts: after the tenant's newest event, so nothing that happens
// between sign-in and the stream going live is missed. A tab that saw events resumes after the last one.
async function seedLive() {
  if (lastEventId()) return;
  const page = await api("GET", "/events?limit=1");
  if (page.events.length) sessionStorage.setItem(LAST_EVENT_ITEM, page.events[0].id);
}

async function startLive() {
  try {
    await seedLive();
  } catch (error) {
    $("live-status").title = describe(error);
  }
  openStream();
}

function resetLive() {
  stopStream();
  sessionStorage.removeItem(LAST_EVENT_ITEM);
  live.recent = [];
  seenAll();
}

// ---- refreshing the open page -------------------------------------------------------------------------

const refresher = { timer: null, soon: null, run: null };

// `run` refreshes what the open page shows; it is called every REFRESH_S while the tab is visible and
// the rate budget allows, and soon after events arrive.
function refreshWith(run) {
  refresher.run = run;
  clearInterval(refresher.timer);
  refresher.timer = run ? setInterval(() => refreshNow(false), REFRESH_S * 1000) : null;
}

function refreshNow(forced) {
  if (!refresher.run || document.visibilityState !== "visible") return;
  if (!forced && !budgetAllows()) return;
  refresher.run().catch((error) => sayError(`page:${currentArea()}`, error));
}

function refreshSoon() {
  clearTimeout(refresher.soon);
  refresher.soon = setTimeout(() => refreshNow(false), BURST_MS);
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") refreshSoon();
});

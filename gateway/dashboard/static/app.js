// intentgate dashboard: plain JavaScript, no build step. The API key lives in sessionStorage only (this tab,
// this session) and travels as `Authorization: Bearer` to /v1beta; it is never put in a URL. Everything the
// API returns is written into the page with textContent, never as HTML. Helpers are in core.js; the
// account, webhook and plan panels in account.js, deliveries.js and plans.js.
"use strict";

// Events kept in the live feed list.
const FEED_MAX = 100;
// Seconds between stream reconnects: doubled after each failure up to the cap (each connect counts
// against the key's rate limit).
const RETRY_FIRST_S = 2;
const RETRY_MAX_S = 60;

// ---- agents -------------------------------------------------------------------------------------------

// Last stored reading per agent id (GET /agent-readings).
const readings = new Map();

function readingText(agentId) {
  const reading = readings.get(agentId);
  if (!reading) return "none yet";
  return reading.at === undefined ? reading.value : `${reading.value} · ${when(reading.at)}`;
}

// Newest event per agent id, from the pull rail's first page (and the live feed after it).
const lastEvents = new Map();

function noteEvent(item) {
  const known = lastEvents.get(item.agent.id);
  if (!known || known.created_at <= item.created_at) lastEvents.set(item.agent.id, item);
}

function agentState(agent) {
  // What the operator wants at a glance: a paused agent does nothing; otherwise its latest event says
  // whether its source is failing (degraded), it has fired (triggered), or it waits (armed).
  if (agent.status === "paused") return "paused";
  const last = lastEvents.get(agent.id);
  if (last && last.type === "agent.degraded") return "degraded";
  if (last && last.type === "agent.triggered") return "triggered";
  return "armed";
}

async function loadAgents() {
  const [page, events, stored] = await Promise.all([
    api("GET", "/agents?limit=200"),
    api("GET", "/agent-events?limit=200"),
    api("GET", "/agent-readings"),
  ]);
  for (const item of events.events) noteEvent(item);
  readings.clear();
  for (const reading of stored.readings) readings.set(reading.agent_id, reading);
  const body = $("agents-body");
  body.replaceChildren(...page.agents.map(agentRow));
  $("agents-empty").hidden = page.agents.length > 0;
}

function lastEventText(agentId) {
  const last = lastEvents.get(agentId);
  if (!last) return "none";
  const headline = (last.trigger && last.trigger.headline) || "";
  return `${last.type} · ${when(last.created_at)}${headline ? ` · ${headline}` : ""}`;
}

function agentRow(agent) {
  const paused = agent.status === "paused";
  const del = el("button", { type: "button", class: "danger", text: "Delete" });
  del.addEventListener("click", () => {
    // Two clicks: the first arms the button (no modal dialog to get in the way).
    if (del.dataset.armed !== "yes") {
      del.dataset.armed = "yes";
      del.textContent = "Confirm delete";
      return;
    }
    act(() => api("DELETE", `/agents/${encodeURIComponent(agent.id)}`), "Agent deleted.");
  });
  const toggle = el("button", {
    type: "button",
    text: paused ? "Resume" : "Pause",
    onclick: () =>
      act(
        () => api("PATCH", `/agents/${encodeURIComponent(agent.id)}`, JSON.stringify({ status: paused ? "active" : "paused" })),
        paused ? "Agent resumed." : "Agent paused.",
      ),
  });
  const test = el("button", {
    type: "button",
    text: "Send test event",
    onclick: () => act(() => api("POST", `/agents/${encodeURIComponent(agent.id)}/test`), "Test event queued.", false),
  });
  const row = el(
    "tr",
    { "data-agent-id": agent.id },
    el("td", {}, el("span", { text: agent.rendered || agent.intent || agent.kind }), el("span", { class: "id", text: agent.id })),
    el("td", { text: agent.kind }),
    el("td", { class: `status-${agent.status}`, text: agent.status }),
    el("td", { class: `state-${agentState(agent)}`, text: agentState(agent) }),
    el("td", { text: lastEventText(agent.id) }),
    el("td", { text: readingText(agent.id) }),
    el("td", { text: when(agent.last_checked_at) }),
    el("td", { class: "actions" }, toggle, " ", test, " ", del),
  );
  return row;
}

async function act(call, done, reload = true) {
  try {
    await call();
    notice(done);
    if (reload) await loadAgents();
  } catch (error) {
    report(error);
  }
}

function createdNotice(data) {
  if (data && data.status === "needs_clarification") return false;
  notice(`Agent created: ${data.agent.rendered || data.agent.id}`);
  return true;
}

async function createPrice(event) {
  event.preventDefault();
  const form = event.target;
  const threshold = form.threshold.value.trim();
  if (!/^[0-9]+(\.[0-9]+)?$/.test(threshold)) {
    notice("The threshold is a plain decimal number, such as 3000 or 0.25.", true);
    return;
  }
  const fields = {
    kind: "price",
    wallets: [form.wallet.value.trim()],
    asset_symbol: form.asset_symbol.value.trim(),
    coingecko_id: form.coingecko_id.value.trim(),
    condition: form.condition.value,
  };
  // The threshold goes out as the exact decimal typed, a JSON number (a JS number could round it).
  const body = JSON.stringify(fields).slice(0, -1) + `,"threshold":${threshold}}`;
  try {
    createdNotice(await api("POST", "/agents", body));
    await loadAgents();
  } catch (error) {
    report(error);
  }
}

async function createFromRequest(event, requestText) {
  if (event) event.preventDefault();
  const form = $("request-form");
  const text = requestText || form.request.value.trim();
  const box = $("clarification");
  box.hidden = true;
  try {
    const data = await api("POST", "/agents", JSON.stringify({ request: text, wallets: [form.wallet.value.trim()] }));
    if (createdNotice(data)) {
      form.request.value = "";
      await loadAgents();
      return;
    }
    // Contract: answer with the original text, a blank line, then "Clarification — <question>: <label>".
    $("clarification-question").textContent = data.question;
    $("clarification-options").replaceChildren(
      ...data.options.map((option) =>
        el("button", {
          type: "button",
          text: option.label,
          onclick: () => createFromRequest(null, `${text}\n\nClarification — ${data.question}: ${option.label}`),
        }),
      ),
    );
    box.hidden = false;
    notice("The service needs one more detail.");
  } catch (error) {
    report(error);
  }
}

// ---- live feed (SSE over fetch, so the key travels in a header) ---------------------------------------

const feed = { controller: null, lastId: null, retryS: RETRY_FIRST_S, timer: null };

function feedStatus(text, live = false) {
  const badge = $("feed-status");
  badge.textContent = text;
  badge.classList.toggle("live", live);
}

function showEvent(item) {
  const trigger = item.trigger || {};
  const li = el(
    "li",
    { "data-event-id": item.id },
    el("span", { class: "type", text: item.type }),
    el("span", { text: trigger.headline || "" }),
    el("span", { class: "when", text: `${item.agent.id} · ${when(item.created_at)}` }),
  );
  if (item.remedy && typeof item.remedy === "object") li.append(remedyBox(item));
  noteEvent(item);
  refreshSoon();
  const list = $("feed");
  list.prepend(li);
  while (list.children.length > FEED_MAX) list.lastElementChild.remove();
  $("feed-empty").hidden = true;
}

// Panels an event changes (agents' state, deliveries) reload once per burst of events, not per event.
let refreshTimer = null;
function refreshSoon() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => {
    loadAgents().catch(report);
    loadDeliveries().catch(report);
    loadEndpoints().catch(report);
  }, 500);
}

function handleFrame(frame) {
  let id = null;
  let data = "";
  for (const line of frame.split("\n")) {
    if (line === ": live") {
      feedStatus("live", true);
      feed.retryS = RETRY_FIRST_S;
    } else if (line.startsWith("id:")) id = line.slice(3).trim();
    else if (line.startsWith("data:")) data += line.slice(5).trim();
  }
  if (id && data) {
    feed.lastId = id;
    showEvent(JSON.parse(data, exactReviver));
  }
}

async function openFeed() {
  stopFeed();
  const controller = new AbortController();
  feed.controller = controller;
  const headers = { Authorization: `Bearer ${sessionStorage.getItem(KEY_ITEM)}`, Accept: "text/event-stream" };
  if (feed.lastId) headers["Last-Event-ID"] = feed.lastId;
  feedStatus("connecting");
  try {
    const response = await fetch(`${API}/agent-events/stream`, { headers, signal: controller.signal });
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
    notice(`Live feed: ${error.message}`, true);
  }
  if (controller.signal.aborted) return;
  feedStatus(`reconnecting in ${feed.retryS} s`);
  feed.timer = setTimeout(openFeed, feed.retryS * 1000);
  feed.retryS = Math.min(feed.retryS * 2, RETRY_MAX_S);
}

function stopFeed() {
  if (feed.controller) feed.controller.abort();
  feed.controller = null;
  clearTimeout(feed.timer);
  feedStatus("offline");
}

// ---- session ------------------------------------------------------------------------------------------

function showApp(signedIn) {
  $("sign-in-view").hidden = signedIn;
  $("app-view").hidden = !signedIn;
  $("sign-out").hidden = !signedIn;
  $("nav").hidden = !signedIn;
  $("who").textContent = signedIn ? "signed in" : "";
}

function signOut(message = "") {
  sessionStorage.removeItem(KEY_ITEM);
  stopFeed();
  feed.lastId = null;
  showApp(false);
  $("sign-in-error").textContent = message;
}

async function start() {
  try {
    await loadAgents();
  } catch (error) {
    const message = error instanceof ApiFailure && error.status === 403
      ? "This key lacks the agents scope."
      : error.message;
    signOut(message);
    return;
  }
  showApp(true);
  openFeed();
  loadAccount().catch(report);
  loadKeys().catch(report);
  loadChains().catch(report);
  loadEndpoints()
    .then(loadDeliveries)
    .catch(report);
}

document.addEventListener("DOMContentLoaded", () => {
  $("sign-in-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const key = $("key-input").value.trim();
    $("key-input").value = "";
    if (!key) return;
    sessionStorage.setItem(KEY_ITEM, key);
    start();
  });
  $("sign-out").addEventListener("click", () => signOut());
  $("refresh-agents").addEventListener("click", () => loadAgents().catch(report));
  $("refresh-endpoints").addEventListener("click", () => loadEndpoints().catch(report));
  $("usage-span").addEventListener("change", () => loadAccount().catch(report));
  $("refresh-account").addEventListener("click", () => {
    loadAccount().catch(report);
    loadKeys().catch(report);
  });
  $("deliveries-filter").addEventListener("submit", (event) => {
    event.preventDefault();
    loadDeliveries().catch(report);
  });
  $("plan-form").addEventListener("submit", submitPlan);
  session.onRefused = signOut;
  $("price-form").addEventListener("submit", createPrice);
  $("request-form").addEventListener("submit", (event) => createFromRequest(event));
  if (sessionStorage.getItem(KEY_ITEM)) start();
  else showApp(false);
});

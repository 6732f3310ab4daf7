// intentgate dashboard, events and deliveries: the tenant's events searched, filtered and paged with new
// ones arriving live; one event's page (its trigger, the exact body receivers get, its remedy's
// verification and changes in a wallet's words, steps, calldata and dry runs, its deliveries); and the
// delivery log, searched, filtered and paged, refreshed while open so each delivery shows its real
// state, with replay beside each.
"use strict";

const eventsView = { filters: { q: "", type: "", agent_id: "" }, paging: newPaging() };
const deliveriesView = { filters: { q: "", state: "", event_type: "", endpoint_id: "" }, paging: newPaging() };

function queryOf(filters, paging, limit) {
  const params = new URLSearchParams({ limit: String(limit) });
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  if (paging.cursor) params.set("cursor", paging.cursor);
  return params;
}

// Condition and schedule triggers carry placeholder thresholds (contract: `above`, 0): not shown.
const PLACEHOLDER_KINDS = ["condition", "schedule"];

function triggerFacts(trigger) {
  const facts = [];
  const names = ["value_at_trigger", "price_at_trigger", "change_pct"];
  if (!PLACEHOLDER_KINDS.includes(trigger.kind)) names.push("threshold");
  for (const name of names) {
    if (trigger[name] !== undefined && trigger[name] !== null) {
      facts.push(el("span", { class: "fact" }, `${name.replaceAll("_", " ")} `, numberNode(trigger[name])));
    }
  }
  return facts;
}

function countsText(counts) {
  if (!counts) return "";
  const parts = [];
  for (const state of ["delivered", "queued", "dead"]) if (counts[state]) parts.push(`${counts[state]} ${state}`);
  return parts.join(" · ") || "no endpoint";
}

function eventRow(item, fresh = false) {
  const trigger = item.trigger || {};
  return el(
    "tr",
    { "data-event-id": item.id, class: fresh ? "fresh" : undefined },
    cell("When", "", timeNode(item.created_at)),
    cell("Type", "", el("a", { href: `/dashboard/events/${item.id}`, "data-route": "", text: item.type }), idText(item.id)),
    cell("Agent", "", el("span", { class: "mono wrap", text: item.agent.id }), el("span", { class: "sub", text: item.agent.kind })),
    cell("Trigger", "", el("span", { text: trigger.headline || "" }), el("span", { class: "sub" }, ...triggerFacts(trigger))),
    cell("Deliveries", "", countsText(item.deliveries)),
    cell("Remedy", "", item.remedy_status || (item.remedy && item.remedy.status) || el("span", { class: "muted", text: "none" })),
  );
}

function eventsTable(items) {
  return dataTable(["When", "Type", "Agent", "Trigger", "Deliveries", "Remedy"], items.map((item) => eventRow(item)), "Events", "events-table");
}

async function loadEvents() {
  const page = await api("GET", `/events?${queryOf(eventsView.filters, eventsView.paging, 25)}`, undefined, true);
  eventsView.paging.next = page.next_cursor;
  const filtered = Object.values(eventsView.filters).some(Boolean);
  $("events-list").replaceChildren(
    page.events.length ? eventsTable(page.events) : el("p", { class: "muted empty", text: filtered ? "No event matches." : "No events yet." }),
    pager(eventsView.paging, "Event pages", () => loadEvents().catch((error) => sayError("page:events", error))),
  );
  seenAll();
}

// A live event on the events page: at the top of the first unfiltered page, or counted for the others.
function eventArrived(item) {
  const first = !eventsView.paging.cursor && !Object.values(eventsView.filters).some(Boolean);
  const body = document.querySelector("#events-list tbody");
  if (!first || !body || body.querySelector(`tr[data-event-id="${CSS.escape(item.id)}"]`)) return;
  body.prepend(eventRow(item, true));
}

// ---- one event ----------------------------------------------------------------------------------------

function prettyJson(text) {
  try {
    return JSON.stringify(JSON.parse(text, exactReviver), null, 2);
  } catch {
    return text;
  }
}

function remedyBody(remedy) {
  const parts = [el("p", { text: remedy.summary || "" })];
  const status = remedy.status;
  if (status === "not_buildable") parts.push(el("p", { class: "error", text: `Not buildable: ${remedy.reason || "no reason given"}` }));
  if (remedy.planned_at) parts.push(el("p", { class: "muted" }, "Planned ", timeNode(remedy.planned_at)));
  if (remedy.plan && remedy.plan.steps.length) {
    const steps = remedy.plan.steps;
    const table = stepsTable(steps, "Remedy steps");
    const sims = el("div", { class: "sim-box" });
    parts.push(el("p", { class: "plan-summary", text: summaryText(remedy.plan.summary, steps.length) }));
    if (remedy.verification) parts.push(verificationView(remedy.verification, { heading: "What this remedy does" }));
    parts.push(table, sims);
    showSimulations(remedy.simulations || [], steps, table, sims);
  } else if (!status) {
    parts.push(el("p", { class: "muted", text: "Its plan is being built; it appears here within seconds of the event." }));
  }
  return parts;
}

// An event's remedy: its plan as built when it fired (steps, calldata, dry runs), and planning it again.
function remedyView(remedy, eventId) {
  const body = el("div", { class: "remedy-body" }, ...remedyBody(remedy));
  const rebuild = el("button", {
    type: "button",
    text: "Plan it again now (5 credits)",
    onclick: (event) =>
      busy(event.currentTarget, "remedy-rebuild", async () => {
        const fresh = await api("GET", `/events/${encodeURIComponent(eventId)}/plan`, undefined, true);
        body.replaceChildren(...remedyBody({ ...(fresh.remedy || {}), ...fresh }));
        const verification = fresh.verification;
        if (verification && !verification.verified) say("remedy-rebuild", `Planned again, and simulated. ${refusalText(verification)}`, true);
        else say("remedy-rebuild", verification ? "Planned again with fresh quotes, simulated and verified." : "Planned again with fresh quotes, and simulated.");
      }),
  });
  return el("div", { class: "remedy" }, body, el("div", { class: "row-actions" }, rebuild, feedback("remedy-rebuild")));
}

async function showEvent(eventId) {
  const data = await api("GET", `/events/${encodeURIComponent(eventId)}`, undefined, true);
  const event = data.event;
  const trigger = event.trigger || {};
  const sections = [
    el("p", { class: "back" }, el("a", { href: "/dashboard/events", "data-route": "", text: "← All events" })),
    el("p", { class: "lead", id: "event-headline", text: trigger.headline || event.type }),
    el(
      "div",
      { class: "facts" },
      fact("Type", event.type),
      fact("When", timeNode(event.created_at)),
      fact("Agent", el("a", { href: `/dashboard/agents?q=${encodeURIComponent(event.agent.id)}`, "data-route": "", text: event.agent.id })),
      fact("Event id", event.id),
    ),
    el("div", { class: "trigger-facts" }, ...triggerFacts(trigger)),
  ];
  if (event.remedy) sections.push(el("h3", { text: "Remedy (unsigned plan)" }), remedyView(event.remedy, event.id));
  sections.push(
    el("h3", { text: "Deliveries" }),
    data.deliveries.length ? deliveriesTable(data.deliveries) : el("p", { class: "muted", text: "No webhook endpoint was active when it fired." }),
    el("h3", { text: "Payload" }),
    el("p", { class: "muted", text: "The JSON body POSTed to each endpoint, signed as sent (shown indented; Copy gives the exact bytes)." }),
    el("pre", { class: "payload scroll", tabindex: "0", "aria-label": "Event payload" }, el("code", { text: prettyJson(data.pushed_body) })),
    copyButton(data.pushed_body, "Copy the exact payload", "Copy payload"),
  );
  $("event-detail").replaceChildren(...sections);
}

// ---- deliveries ---------------------------------------------------------------------------------------

function attemptText(a) {
  const status = a.status_code === undefined ? "no answer" : String(a.status_code);
  const latency = a.latency_ms === undefined ? "" : ` · ${a.latency_ms} ms`;
  const error = a.error ? ` · ${a.error}` : "";
  return `#${a.attempt} ${a.outcome} · ${status}${latency} · ${timeText(a.at)}${error}`;
}

function deliveryRow(d) {
  const key = `delivery:${d.id}`;
  const replay = el("button", {
    type: "button",
    text: "Replay",
    onclick: (event) =>
      busy(event.currentTarget, key, async () => {
        await api("POST", `/deliveries/${encodeURIComponent(d.id)}/replay`);
        say(key, "Queued: it is attempted at the next delivery tick.");
        await reloadDeliveries();
      }),
  });
  const attempts = d.attempts.length
    ? el("ol", { class: "attempts" }, ...d.attempts.map((a) => el("li", { text: attemptText(a) })))
    : el("span", { class: "muted", text: "no attempt yet" });
  return el(
    "tr",
    { "data-delivery-id": d.id, "data-state": d.state },
    cell("Event", "", el("a", { href: `/dashboard/events/${d.event_id}`, "data-route": "", text: d.event_type }), idText(d.event_id)),
    cell("Endpoint", "url", d.endpoint_url),
    cell("State", `state-${d.state}`, el("span", { class: `badge state-${d.state}`, text: d.state })),
    cell("Attempts", "", attempts),
    cell("Next try", "", d.next_attempt_at === undefined ? el("span", { class: "muted", text: "none" }) : timeNode(d.next_attempt_at)),
    cell("Actions", "actions", replay, feedback(key)),
  );
}

function deliveriesTable(items) {
  return dataTable(["Event", "Endpoint", "State", "Attempts", "Next try", "Actions"], items.map(deliveryRow), "Deliveries", "deliveries-table");
}

async function loadDeliveries() {
  const page = await api("GET", `/deliveries?${queryOf(deliveriesView.filters, deliveriesView.paging, 25)}`);
  deliveriesView.paging.next = page.next_cursor;
  const filtered = Object.values(deliveriesView.filters).some(Boolean);
  $("deliveries-list").replaceChildren(
    page.deliveries.length ? deliveriesTable(page.deliveries) : el("p", { class: "muted empty", text: filtered ? "No delivery matches." : "No deliveries yet." }),
    pager(deliveriesView.paging, "Delivery pages", () => loadDeliveries().catch((error) => sayError("page:deliveries", error))),
  );
}

async function loadEndpointChoices() {
  const data = await api("GET", "/webhook-endpoints");
  const select = $("deliveries-filter").endpoint_id;
  const chosen = deliveriesView.filters.endpoint_id;
  select.replaceChildren(el("option", { value: "", text: "any endpoint" }), ...data.endpoints.map((e) => el("option", { value: e.id, text: e.url })));
  select.value = data.endpoints.some((e) => e.id === chosen) ? chosen : "";
}

// A replay redraws whatever shows the delivery: the log, or the event's page.
async function reloadDeliveries() {
  if (currentArea() === "deliveries") await loadDeliveries();
  else if (currentEventId()) await showEvent(currentEventId());
}

const eventsPage = {
  async show(params) {
    eventsView.filters = { q: params.get("q") || "", type: params.get("type") || "", agent_id: params.get("agent_id") || "" };
    const form = $("events-filter");
    for (const [name, value] of Object.entries(eventsView.filters)) form[name].value = value;
    eventsView.paging = newPaging();
    await loadEvents();
  },
  refresh: () => loadEvents(),
  onEvent: eventArrived,
};

const eventPage = {
  show: (_params, eventId) => showEvent(eventId),
  refresh: () => showEvent(currentEventId()),
};

const deliveriesPage = {
  async show(params) {
    deliveriesView.filters = {
      q: params.get("q") || "",
      state: params.get("state") || "",
      event_type: params.get("event_type") || "",
      endpoint_id: params.get("endpoint_id") || "",
    };
    const form = $("deliveries-filter");
    for (const name of ["q", "state", "event_type"]) form[name].value = deliveriesView.filters[name];
    deliveriesView.paging = newPaging();
    await loadEndpointChoices();
    await loadDeliveries();
  },
  refresh: () => loadDeliveries(),
};

function setUpEvents() {
  $("events-filter").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target;
    eventsView.filters = { q: form.q.value.trim(), type: form.type.value, agent_id: form.agent_id.value.trim() };
    eventsView.paging = newPaging();
    setQuery(eventsView.filters);
    loadEvents().catch((error) => sayError("page:events", error));
  });
  $("deliveries-filter").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target;
    deliveriesView.filters = { q: form.q.value.trim(), state: form.state.value, event_type: form.event_type.value, endpoint_id: form.endpoint_id.value };
    deliveriesView.paging = newPaging();
    setQuery(deliveriesView.filters);
    loadDeliveries().catch((error) => sayError("page:deliveries", error));
  });
}

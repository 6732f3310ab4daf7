// intentgate dashboard, webhooks: endpoint health (failure streak, disabled, re-enable, recent attempts) and
// the delivery history with filters, each delivery's attempts (status, latency, next retry) and replay.
"use strict";

function attemptText(a) {
  const status = a.status_code === undefined ? "no answer" : String(a.status_code);
  const latency = a.latency_ms === undefined ? "" : ` · ${a.latency_ms} ms`;
  const error = a.error ? ` · ${a.error}` : "";
  return `#${a.attempt} ${a.outcome} · ${status}${latency} · ${when(a.at)}${error}`;
}

function endpointBox(endpoint, attempts) {
  const rows = attempts.map((a) =>
    el(
      "tr",
      {},
      el("td", { text: when(a.at) }),
      el("td", { class: "mono", text: a.event_id }),
      el("td", { text: `#${a.attempt} ${a.outcome}` }),
      el("td", { text: a.status_code === undefined ? "no answer" : String(a.status_code) }),
      el("td", { text: a.error || (a.latency_ms === undefined ? "" : `${a.latency_ms} ms`) }),
    ),
  );
  const head = el(
    "div",
    { class: "endpoint-head" },
    el("span", { class: "url", text: endpoint.url }),
    el("span", { class: `badge ${endpoint.status}`, text: endpoint.status }),
    el("span", { class: "streak", text: `failure streak ${endpoint.failure_streak} of 10` }),
  );
  if (endpoint.status === "disabled") {
    head.append(
      el("span", { class: "muted", text: `disabled ${when(endpoint.disabled_at)}` }),
      el("button", {
        type: "button",
        text: "Re-enable",
        onclick: async () => {
          try {
            await api("POST", `/webhook-endpoints/${encodeURIComponent(endpoint.id)}/enable`);
            notice("Endpoint re-enabled; replay the deliveries you want sent again.");
            await loadEndpoints();
          } catch (error) {
            report(error);
          }
        },
      }),
    );
  }
  return el(
    "div",
    { class: "endpoint", "data-endpoint-id": endpoint.id },
    head,
    rows.length
      ? table(["When", "Event", "Attempt", "Status", "Detail"], rows, `Attempts to ${endpoint.url}`)
      : el("p", { class: "muted", text: "No delivery attempts yet." }),
  );
}

async function loadEndpoints() {
  const data = await api("GET", "/webhook-endpoints/health");
  const boxes = [];
  for (const endpoint of data.endpoints) {
    const attempts = await api("GET", `/webhook-endpoints/${encodeURIComponent(endpoint.id)}/attempts?limit=5`);
    boxes.push(endpointBox(endpoint, attempts.attempts));
  }
  $("endpoints").replaceChildren(...boxes);
  $("endpoints-empty").hidden = data.endpoints.length > 0;
  const filter = $("filter-endpoint");
  const chosen = filter.value;
  filter.replaceChildren(
    el("option", { value: "", text: "any endpoint" }),
    ...data.endpoints.map((e) => el("option", { value: e.id, text: e.url })),
  );
  filter.value = data.endpoints.some((e) => e.id === chosen) ? chosen : "";
}

function deliveryRow(d) {
  const replay = el("button", {
    type: "button",
    text: "Replay",
    onclick: async () => {
      try {
        await api("POST", `/deliveries/${encodeURIComponent(d.id)}/replay`);
        notice("Delivery queued; it is attempted at the next delivery tick.");
        await loadDeliveries();
      } catch (error) {
        report(error);
      }
    },
  });
  const attempts = d.attempts.length
    ? el("ol", { class: "attempts" }, ...d.attempts.map((a) => el("li", { text: attemptText(a) })))
    : el("span", { class: "muted", text: "no attempt yet" });
  return el(
    "tr",
    { "data-delivery-id": d.id, "data-state": d.state },
    el("td", {}, el("span", { text: d.event_type }), el("span", { class: "id", text: d.event_id })),
    el("td", { class: "mono", text: d.agent_id }),
    el("td", { class: "url", text: d.endpoint_url }),
    el("td", { class: `state-${d.state}`, text: d.state }),
    el("td", {}, attempts),
    el("td", { text: d.next_attempt_at === undefined ? "none" : when(d.next_attempt_at) }),
    el("td", { class: "actions" }, replay),
  );
}

async function loadDeliveries() {
  const params = new URLSearchParams({ limit: "50" });
  for (const [name, id] of [["state", "filter-state"], ["endpoint_id", "filter-endpoint"], ["event_type", "filter-type"]]) {
    if ($(id).value) params.set(name, $(id).value);
  }
  const data = await api("GET", `/deliveries?${params}`);
  const rows = data.deliveries.map(deliveryRow);
  $("deliveries").replaceChildren(
    rows.length
      ? table(["Event", "Agent", "Endpoint", "State", "Attempts", "Next retry", ""], rows, "Deliveries")
      : el("p", { class: "muted", text: "No deliveries match." }),
  );
}

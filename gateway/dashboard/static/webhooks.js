// intentgate dashboard, the webhook endpoints page: register one (its signing secret shown once), and for
// each its health (status, failure streak, latest attempts), rotating its secret (the new one shown
// once, the old one signing beside it for the overlap chosen), re-enabling it and deleting it.
"use strict";

// Secrets handed out on this page, by endpoint id, until the operator dismisses them or leaves the page:
// a refresh of the list must not lose a secret that cannot be shown again.
const shownSecrets = new Map();

const OVERLAPS = [
  ["86400", "old one signs 24 h more"],
  ["3600", "old one signs 1 h more"],
  ["0", "old one stops now (leaked)"],
];

function attemptsTable(endpoint) {
  const rows = endpoint.recent_attempts.map((a) =>
    el(
      "tr",
      {},
      cell("When", "", timeNode(a.at)),
      cell("Event", "", el("a", { href: `/dashboard/events/${a.event_id}`, "data-route": "", class: "mono", text: a.event_id })),
      cell("Attempt", "", `#${a.attempt} ${a.outcome}`),
      cell("Status", "", a.status_code === undefined ? "no answer" : String(a.status_code)),
      cell("Detail", "", a.error || (a.latency_ms === undefined ? "" : `${a.latency_ms} ms`)),
    ),
  );
  return rows.length
    ? dataTable(["When", "Event", "Attempt", "Status", "Detail"], rows, `Latest attempts to ${endpoint.url}`, "attempts-table")
    : el("p", { class: "muted", text: "No delivery attempts yet." });
}

function endpointCard(endpoint) {
  const key = `endpoint:${endpoint.id}`;
  const path = `/webhook-endpoints/${encodeURIComponent(endpoint.id)}`;
  const secretSlot = el("div", { class: "secret-slot" });
  const shown = shownSecrets.get(endpoint.id);
  if (shown) secretSlot.append(shown);
  const overlap = el("select", { id: `overlap-${endpoint.id}`, name: "previous_valid_s" }, ...OVERLAPS.map(([value, text]) => el("option", { value, text })));
  const rotate = confirmButton(
    "Rotate secret",
    "Confirm rotation",
    async () => {
      try {
        const rotated = await api("POST", `${path}/rotate-secret?previous_valid_s=${overlap.value}`);
        const until = rotated.previous_expires_at;
        const detail = until === undefined ? "The old secret no longer signs." : `The old secret also signs until ${timeText(until)}.`;
        const box = secretBox("New signing secret", rotated.signing_secret, detail);
        shownSecrets.set(endpoint.id, box);
        say(key, `Secret rotated. ${detail}`);
        await loadEndpoints();
      } catch (error) {
        sayError(key, error);
      }
    },
    "",
  );
  const actions = el(
    "div",
    { class: "row-actions" },
    el("label", { for: overlap.id, class: "inline" }, "On rotation: ", overlap),
    rotate,
  );
  if (endpoint.status === "disabled") {
    actions.append(
      el("button", {
        type: "button",
        text: "Re-enable",
        onclick: (event) =>
          busy(event.currentTarget, key, async () => {
            await api("POST", `${path}/enable`);
            say(key, "Re-enabled; replay the deliveries you want sent again from the deliveries page.");
            await loadEndpoints();
          }),
      }),
    );
  }
  actions.append(
    confirmButton("Delete", "Confirm delete", async () => {
      try {
        await api("DELETE", path);
        shownSecrets.delete(endpoint.id);
        say("page:webhooks", `Endpoint ${endpoint.url} deleted; its queued deliveries are dead-lettered.`);
        await loadEndpoints();
      } catch (error) {
        sayError(key, error);
      }
    }),
  );
  const facts = [
    el("span", { class: `badge ${endpoint.status}`, text: endpoint.status }),
    el("span", { class: "sub", text: `failure streak ${endpoint.failure_streak} of 10` }),
    el("span", { class: "sub" }, "registered ", timeNode(endpoint.created_at)),
  ];
  if (endpoint.disabled_at !== undefined) facts.push(el("span", { class: "sub" }, "disabled ", timeNode(endpoint.disabled_at)));
  if (endpoint.previous_secret_expires_at !== undefined) {
    facts.push(el("span", { class: "sub" }, "old secret signs until ", timeNode(endpoint.previous_secret_expires_at)));
  }
  return el(
    "article",
    { class: "endpoint", "data-endpoint-id": endpoint.id, "aria-labelledby": `url-${endpoint.id}` },
    el("h3", { class: "url", id: `url-${endpoint.id}`, text: endpoint.url }),
    el("div", { class: "endpoint-facts" }, ...facts),
    actions,
    feedback(key),
    secretSlot,
    el("h4", { text: "Latest attempts" }),
    attemptsTable(endpoint),
  );
}

async function loadEndpoints() {
  const data = await api("GET", "/webhook-endpoints/health");
  $("endpoints").replaceChildren(
    ...(data.endpoints.length ? data.endpoints.map(endpointCard) : [el("p", { class: "muted empty", text: "No webhook endpoints registered." })]),
  );
}

async function createEndpoint(event) {
  event.preventDefault();
  const form = event.target;
  await busy(form.querySelector("button[type=submit]"), "endpoint-create", async () => {
    try {
      const made = await api("POST", "/webhook-endpoints", { url: form.url.value.trim() });
      markIssues(form, null);
      form.url.value = "";
      const box = secretBox("Signing secret", made.signing_secret, "Verify each delivery's X-Service-Signature with it.");
      $("new-endpoint-secret").replaceChildren(box);
      say("endpoint-create", `Endpoint ${made.endpoint.url} registered.`);
      await loadEndpoints();
    } catch (error) {
      markIssues(form, error);
      throw error;
    }
  });
}

const webhooksPage = {
  show: () => loadEndpoints(),
  refresh: () => loadEndpoints(),
  leave: () => {
    shownSecrets.clear();
    $("new-endpoint-secret").replaceChildren();
  },
};

function setUpWebhooks() {
  $("endpoint-form").addEventListener("submit", createEndpoint);
}

// intentgate dashboard, the agents page: the tenant's agents searched, filtered and paged, each with the
// state its checks left (a gas agent whose condition holds says so rather than "armed"), its last reading
// and last event, refreshed while the page is open; pause, resume, test and delete beside each agent; and
// creating one, typed or in plain English with every clarification answerable (a choice or a typed answer).
"use strict";

const agentsView = { filters: { q: "", status: "", kind: "" }, paging: newPaging() };

// What each state means at a glance; the sentence the service gives is shown beside it.
const STATE_LABELS = {
  armed: "armed",
  holding: "condition holds",
  baseline: "first check pending",
  degraded: "degraded",
  paused: "paused",
  scheduled: "scheduled",
};

function agentQuery() {
  const params = new URLSearchParams({ limit: "25" });
  for (const [name, value] of Object.entries(agentsView.filters)) if (value) params.set(name, value);
  if (agentsView.paging.cursor) params.set("cursor", agentsView.paging.cursor);
  return params;
}

async function loadAgents() {
  const page = await api("GET", `/agent-overview?${agentQuery()}`);
  agentsView.paging.next = page.next_cursor;
  const rows = page.agents.map(agentRow);
  const filtered = Object.values(agentsView.filters).some(Boolean);
  $("agents-list").replaceChildren(
    rows.length
      ? dataTable(["Agent", "Kind", "Status", "State", "Reading", "Last event", "Last check", "Actions"], rows, "Agents", "agents-table")
      : el("p", { class: "muted empty", text: filtered ? "No agent matches." : "No agents yet: create one below." }),
    pager(agentsView.paging, "Agent pages", () => loadAgents().catch((error) => sayError("page:agents", error))),
  );
}

function readingCell(item) {
  if (!item.reading) return cell("Reading", "", el("span", { class: "muted", text: "none yet" }));
  const at = item.reading.at;
  return cell(
    "Reading",
    "reading",
    readingNode(item.reading.value, item.agent.kind),
    at === undefined ? "" : el("span", { class: "sub" }, "stored ", timeNode(at)),
  );
}

function lastEventCell(item) {
  const last = item.last_event;
  if (!last) return cell("Last event", "", el("span", { class: "muted", text: "none recent" }));
  return cell(
    "Last event",
    "",
    el("a", { href: `/dashboard/events/${last.id}`, "data-route": "", text: last.type }),
    el("span", { class: "sub" }, timeNode(last.created_at), last.headline ? ` · ${last.headline}` : ""),
  );
}

function agentRow(item) {
  const agent = item.agent;
  const key = `agent:${agent.id}`;
  const paused = agent.status === "paused";
  const path = `/agents/${encodeURIComponent(agent.id)}`;
  const act = (call, done) => async (event) => {
    await busy(event.currentTarget, key, async () => {
      await call();
      say(key, done);
      await loadAgents();
    });
  };
  const actions = cell(
    "Actions",
    "actions",
    el("button", {
      type: "button",
      text: paused ? "Resume" : "Pause",
      onclick: act(() => api("PATCH", path, { status: paused ? "active" : "paused" }), paused ? "Resumed." : "Paused."),
    }),
    el("button", {
      type: "button",
      text: "Send test event",
      onclick: act(() => api("POST", `${path}/test`), "Test event queued: it shows on the events page now."),
    }),
    confirmButton("Delete", "Confirm delete", async () => {
      try {
        await api("DELETE", path);
        say("page:agents", `Agent ${agent.rendered || agent.id} deleted.`);
        await loadAgents();
      } catch (error) {
        sayError(key, error);
      }
    }),
    feedback(key),
  );
  const checked = agent.last_checked_at;
  return el(
    "tr",
    { "data-agent-id": agent.id, "data-state": item.state },
    cell("Agent", "", el("span", { class: "agent-text", text: agent.rendered || agent.intent || agent.kind }), idText(agent.id)),
    cell("Kind", "", agent.kind),
    cell("Status", `status-${agent.status}`, agent.status),
    cell(
      "State",
      "",
      el("span", { class: `badge state-${item.state}`, text: STATE_LABELS[item.state] || item.state }),
      el("span", { class: "sub", text: item.state_note }),
    ),
    readingCell(item),
    lastEventCell(item),
    cell("Last check", "", checked === null || checked === undefined ? el("span", { class: "muted", text: "not yet" }) : el("span", {}, timeNode(checked), el("span", { class: "sub", text: agoText(checked) }))),
    actions,
  );
}

// ---- creating agents ----------------------------------------------------------------------------------

function createdText(data) {
  const parts = [`Agent created: ${data.agent.rendered || data.agent.id}.`];
  const compile = data.compile || {};
  if (compile.dropped_action) parts.push(`Not acted on: ${compile.dropped_action}.`);
  if (compile.note) parts.push(compile.note);
  if (data.agent.remedy && data.agent.remedy.summary) parts.push(data.agent.remedy.summary);
  return parts.join(" ");
}

async function createPrice(event) {
  event.preventDefault();
  const form = event.target;
  const threshold = form.threshold.value.trim();
  if (!/^[0-9]+(\.[0-9]+)?$/.test(threshold)) {
    form.threshold.setAttribute("aria-invalid", "true");
    say("price-create", "The threshold is a plain decimal number, such as 3000 or 0.25.", true);
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
  await busy(form.querySelector("button[type=submit]"), "price-create", async () => {
    try {
      const data = await api("POST", "/agents", body);
      markIssues(form, null);
      say("price-create", createdText(data));
      await loadAgents();
    } catch (error) {
      markIssues(form, error);
      throw error;
    }
  });
}

// Contract: answer with the original text, a blank line, then "Clarification — <question>: <answer>".
function answered(text, question, answer) {
  return `${text}\n\nClarification — ${question}: ${answer}`;
}

async function createFromRequest(requestText) {
  const form = $("request-form");
  const box = $("clarification");
  const wallet = form.wallet.value.trim();
  const data = await api("POST", "/agents", { request: requestText, wallets: [wallet] });
  if (data.status !== "needs_clarification") {
    box.replaceChildren();
    box.hidden = true;
    form.request.value = "";
    markIssues(form, null);
    say("request-create", createdText(data));
    await loadAgents();
    return;
  }
  showClarification(box, data, (answer) => createFromRequest(answered(requestText, data.question, answer)));
  say("request-create", "The service needs one more detail: answer below.");
}

// A clarification in place: a button per option, and a typed answer (the only way when there are none).
function showClarification(box, data, answer) {
  const key = "clarify-answer";
  const input = el("input", { name: "answer", id: `${box.id}-answer`, required: true, spellcheck: "false" });
  const send = async (event, text) => {
    await busy(event.currentTarget, key, () => answer(text));
  };
  const typed = el(
    "div",
    { class: "answer" },
    el("label", { for: input.id, text: data.options.length ? "Or type your answer" : "Your answer" }),
    el("div", { class: "inline-field" }, input, el("button", {
      type: "button",
      text: "Send answer",
      onclick: (event) => {
        const text = input.value.trim();
        if (!text) {
          input.setAttribute("aria-invalid", "true");
          say(key, "Type an answer first.", true);
          return;
        }
        send(event, text);
      },
    })),
  );
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      typed.querySelector("button").click();
    }
  });
  box.replaceChildren(
    el("p", { class: "question", text: data.question }),
    data.options.length
      ? el("div", { class: "options" }, ...data.options.map((o) => el("button", { type: "button", text: o.label, onclick: (event) => send(event, o.label) })))
      : "",
    typed,
    feedback(key),
  );
  box.hidden = false;
  (data.options.length ? box.querySelector(".options button") : input).focus();
}

const agentsPage = {
  async show(params) {
    agentsView.filters = { q: params.get("q") || "", status: params.get("status") || "", kind: params.get("kind") || "" };
    const form = $("agents-filter");
    form.q.value = agentsView.filters.q;
    form.status.value = agentsView.filters.status;
    form.kind.value = agentsView.filters.kind;
    agentsView.paging = newPaging();
    await loadAgents();
  },
  refresh: () => loadAgents(),
};

function setUpAgents() {
  $("agents-filter").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target;
    agentsView.filters = { q: form.q.value.trim(), status: form.status.value, kind: form.kind.value };
    agentsView.paging = newPaging();
    setQuery(agentsView.filters);
    loadAgents().catch((error) => sayError("page:agents", error));
  });
  $("price-form").addEventListener("submit", createPrice);
  $("request-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
    await busy(form.querySelector("button[type=submit]"), "request-create", async () => {
      try {
        await createFromRequest(form.request.value.trim());
      } catch (error) {
        markIssues(form, error);
        throw error;
      }
    });
  });
}

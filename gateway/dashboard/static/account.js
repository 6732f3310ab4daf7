// intentgate dashboard, the account page: credit balance, credits spent over time (an SVG chart drawn
// here, no outside assets), rate tier with what is left of this minute, recent 429s, and the tenant's API
// keys: create one (shown once), revoke one.
"use strict";

// Chart geometry in viewBox units; the SVG scales to its box.
const CHART_W = 600;
const CHART_H = 160;
const CHART_PAD = 22;

function usageChart(usage) {
  const bars = usage.buckets;
  const top = Math.max(1, ...bars.map((b) => b.spent));
  const slot = (CHART_W - CHART_PAD) / bars.length;
  const height = CHART_H - CHART_PAD;
  const total = bars.reduce((sum, b) => sum + b.spent, 0);
  const chart = svg(
    "svg",
    {
      id: "usage-chart",
      viewBox: `0 0 ${CHART_W} ${CHART_H}`,
      role: "img",
      "aria-label": `Credits spent over the last ${usage.span}: ${grouped(String(total))} in all, at most ${grouped(String(top))} in one bar.`,
    },
    svg("line", { x1: CHART_PAD, y1: height, x2: CHART_W, y2: height, class: "axis" }),
    svg("text", { x: 0, y: 12, class: "tick", text: grouped(String(top)) }),
    svg("text", { x: 0, y: height, class: "tick", text: "0" }),
  );
  bars.forEach((bar, i) => {
    const h = (bar.spent / top) * (height - 4);
    const rect = svg("rect", {
      x: CHART_PAD + i * slot + slot * 0.15,
      y: height - h,
      width: Math.max(1, slot * 0.7),
      height: h,
      class: "bar",
      "data-spent": bar.spent,
    });
    rect.append(svg("title", { text: `${timeText(bar.start)}: ${bar.spent} spent, ${bar.added} added` }));
    chart.append(rect);
  });
  chart.append(
    svg("text", { x: CHART_PAD, y: CHART_H - 4, class: "tick", text: new Date(bars[0].start).toLocaleDateString() }),
    svg("text", { x: CHART_W, y: CHART_H - 4, class: "tick end", text: "now" }),
  );
  return chart;
}

async function loadAccount() {
  const span = $("usage-span").value;
  const data = await api("GET", `/account?span=${encodeURIComponent(span)}`);
  $("who").textContent = `tenant ${data.tenant}`;
  const rate = `${grouped(String(data.rate.max_requests))} requests per ${data.rate.window_ms / 1000} s`;
  const left = budget.limit !== null ? `${budget.remaining} left in this window` : "";
  $("account-facts").replaceChildren(
    fact("Tenant", data.tenant),
    fact("Balance", numberNode(String(data.balance), "credits")),
    fact("Cost per metered call", `${data.cost_per_call} credits`),
    fact("Rate tier", `${data.rate.tier}: ${rate}`, left ? el("span", { class: "muted sub", text: left }) : ""),
  );
  $("usage-chart-box").replaceChildren(usageChart(data.usage));
  const refusals = data.recent_rate_limited;
  $("refusals").replaceChildren(
    refusals.length
      ? el("ul", { class: "plain" }, ...refusals.map((r) => el("li", {}, timeNode(r.at), ` · key ${r.key_id}`)))
      : el("p", { class: "muted", text: "No 429s seen by this process." }),
  );
}

function keyRow(key) {
  const revoked = key.revoked_at !== undefined;
  const actions = cell("Actions", "actions");
  if (!revoked) {
    actions.append(
      confirmButton("Revoke", key.current ? "Confirm: revoke this page's key" : "Confirm revoke", async () => {
        try {
          await api("POST", `/keys/${encodeURIComponent(key.id)}/revoke`);
          say(`key:${key.id}`, `Key ${key.prefix}… revoked.`);
          if (key.current) session.onRefused("You revoked the key this page was using.");
          else await loadKeys();
        } catch (error) {
          sayError(`key:${key.id}`, error);
        }
      }),
    );
  }
  actions.append(feedback(`key:${key.id}`));
  const state = revoked ? el("span", {}, "revoked ", timeNode(key.revoked_at)) : key.current ? "active (this page)" : "active";
  return el(
    "tr",
    { "data-key-id": key.id },
    cell("Key", "", el("span", { class: "mono", text: `${key.prefix}…` }), idText(key.id)),
    cell("Scopes", "", key.scopes.join(", ")),
    cell("Created", "", timeNode(key.created_at)),
    cell("Last used", "", key.last_used_at === undefined ? el("span", { class: "muted", text: "not seen" }) : timeNode(key.last_used_at)),
    cell("State", revoked ? "state-revoked" : "state-active", state),
    actions,
  );
}

async function loadKeys() {
  const data = await api("GET", "/keys");
  $("keys").replaceChildren(dataTable(["Key", "Scopes", "Created", "Last used", "State", "Actions"], data.keys.map(keyRow), "API keys"));
}

async function createKey(event) {
  event.preventDefault();
  const form = event.target;
  const scopes = [...form.querySelectorAll("input[name=scopes]:checked")].map((box) => box.value);
  const button = form.querySelector("button[type=submit]");
  $("new-key").replaceChildren();
  await busy(button, "key-create", async () => {
    try {
      const made = await api("POST", "/keys", { scopes });
      say("key-create", `Key ${made.key.prefix}… created with ${made.key.scopes.join(" and ")}.`);
      $("new-key").replaceChildren(secretBox("New API key", made.api_key, "Send it as Authorization: Bearer <key>."));
      markIssues(form, null);
      await loadKeys();
    } catch (error) {
      markIssues(form, error);
      throw error;
    }
  });
}

const accountPage = {
  async show() {
    await Promise.all([loadAccount(), loadKeys()]);
  },
  refresh: () => loadAccount(),
  leave: () => $("new-key").replaceChildren(),
};

function setUpAccount() {
  $("usage-span").addEventListener("change", () => loadAccount().catch((error) => sayError("page:account", error)));
  $("key-form").addEventListener("submit", createKey);
}

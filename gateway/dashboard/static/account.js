// intentgate dashboard, the tenant: credit balance, credits spent over time (an SVG chart drawn here, no
// outside assets), rate tier and recent 429s, and the tenant's API keys with revoke.
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
      "aria-label": `Credits spent over the last ${usage.span}: ${total} in all, at most ${top} in one bar.`,
    },
    svg("line", { x1: CHART_PAD, y1: height, x2: CHART_W, y2: height, class: "axis" }),
    svg("text", { x: 0, y: 12, class: "tick", text: String(top) }),
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
    rect.append(svg("title", { text: `${when(bar.start)}: ${bar.spent} spent, ${bar.added} added` }));
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
  $("tenant-name").textContent = data.tenant;
  $("who").textContent = `tenant ${data.tenant}`;
  $("balance").textContent = `${data.balance.toLocaleString()} credits`;
  $("cost").textContent = `${data.cost_per_call} per metered call`;
  $("tier").textContent = `${data.rate.tier}: ${data.rate.max_requests} requests per ${data.rate.window_ms / 1000} s`;
  $("usage-chart-box").replaceChildren(usageChart(data.usage));
  const refusals = data.recent_rate_limited;
  $("refusals").replaceChildren(
    refusals.length
      ? el("ul", { class: "plain" }, ...refusals.map((r) => el("li", { text: `${when(r.at)} · key ${r.key_id}` })))
      : el("p", { class: "muted", text: "No 429s seen by this process." }),
  );
}

function keyRow(key) {
  const actions = el("td", { class: "actions" });
  if (key.revoked_at === undefined) {
    const revoke = el("button", { type: "button", class: "danger", text: "Revoke" });
    revoke.addEventListener("click", async () => {
      if (revoke.dataset.armed !== "yes") {
        revoke.dataset.armed = "yes";
        revoke.textContent = key.current ? "Confirm: revoke this session's key" : "Confirm revoke";
        return;
      }
      try {
        await api("POST", `/keys/${encodeURIComponent(key.id)}/revoke`);
        notice(`Key ${key.prefix}… revoked.`);
        if (key.current) session.onRefused("You revoked the key this page was using.");
        else await loadKeys();
      } catch (error) {
        report(error);
      }
    });
    actions.append(revoke);
  }
  return el(
    "tr",
    { "data-key-id": key.id },
    el("td", {}, el("span", { class: "mono", text: `${key.prefix}…` }), el("span", { class: "id", text: key.id })),
    el("td", { text: key.scopes.join(", ") }),
    el("td", { text: when(key.created_at) }),
    el("td", { text: key.last_used_at === undefined ? "not seen" : when(key.last_used_at) }),
    el("td", { text: key.revoked_at === undefined ? (key.current ? "active (this page)" : "active") : `revoked ${when(key.revoked_at)}` }),
    actions,
  );
}

async function loadKeys() {
  const data = await api("GET", "/keys");
  $("keys").replaceChildren(table(["Key", "Scopes", "Created", "Last used", "State", ""], data.keys.map(keyRow), "API keys"));
}

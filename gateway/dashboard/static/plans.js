// intentgate dashboard, plans: a request in plain English becomes intents (answering clarifications in the
// page), then ordered unsigned steps, each with its calldata to copy and its simulation. Nothing is signed.
"use strict";

// Contract: /simulate takes these chains only (bsc plans but does not simulate).
const SIMULATED_CHAINS = ["ethereum", "base", "arbitrum", "optimism", "polygon", "solana"];

const plan = { prompt: "", wallets: [], intents: [], steps: [] };

function planWallets() {
  const form = $("plan-form");
  return [{ address: form.wallet.value.trim(), chain: form.chain.value }];
}

async function askIntent(prompt, followUp) {
  const box = $("plan-result");
  box.replaceChildren(el("p", { class: "muted", text: "Reading the request…" }));
  const body = { prompt, wallets: plan.wallets };
  if (followUp) body.clarify_follow_up = true;
  const data = await api("POST", "/intent", body, true);
  if (data.clarifications.length) {
    box.replaceChildren(...data.clarifications.map((c) => clarificationBox(prompt, c)));
    return;
  }
  plan.intents = data.intents;
  const list = el(
    "ol",
    { id: "plan-intents" },
    ...data.intents.map((i) =>
      el("li", { text: Object.entries(i).map(([k, v]) => `${k} ${num(v)}`).join(" · ") }),
    ),
  );
  box.replaceChildren(
    el("h3", { text: data.suggested_name || "Intents" }),
    el("p", { class: "muted", text: data.reasoning }),
    list,
    el("button", { type: "button", id: "build-plan", text: "Build the steps", onclick: () => buildPlan().catch(report) }),
    el("div", { id: "plan-steps" }),
  );
}

function clarificationBox(prompt, clarification) {
  // Contract: re-send the original prompt, a blank line, "Clarification — <question>: <picked label>".
  return el(
    "div",
    { class: "clarify" },
    el("p", { text: clarification.question }),
    ...clarification.options.map((option) =>
      el("button", {
        type: "button",
        text: option.label,
        onclick: () =>
          askIntent(`${prompt}\n\nClarification — ${clarification.question}: ${option.label}`, true).catch(report),
      }),
    ),
  );
}

function copyButton(text, label) {
  return el("button", {
    type: "button",
    class: "copy",
    "aria-label": label,
    text: "Copy calldata",
    onclick: async (event) => {
      const button = event.currentTarget;
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = "Copied";
      } catch (error) {
        notice(`The browser refused the clipboard (${error.message}); select the calldata instead.`, true);
      }
    },
  });
}

function stepRow(step) {
  const payload = step.data || step.solana_tx || "";
  const target = step.to ? el("span", { class: "id", text: `to ${step.to} · value ${step.value}` }) : "";
  const chained = step.chained ? el("span", { class: "id", text: "amount chained: re-encode at sign time" }) : "";
  return el(
    "tr",
    { "data-order": String(step.order) },
    el("td", { text: String(step.order) }),
    el("td", { text: step.chain }),
    el("td", {}, el("span", { text: step.description || step.action_type }), target, chained),
    el("td", { text: `${num(step.amount)} ${step.asset || ""}` }),
    el("td", {}, el("code", { class: "calldata", text: payload }), payload ? copyButton(payload, `Copy calldata of step ${step.order}`) : ""),
    el("td", { class: "sim", text: "not simulated" }),
  );
}

async function buildPlan() {
  const data = await api("POST", "/plan", { intents: plan.intents, wallets: plan.wallets }, true);
  plan.steps = data.steps;
  const s = data.summary;
  $("plan-steps").replaceChildren(
    el("p", { text: `${data.steps.length} steps · ${num(s.bridge_count)} bridges · est. fees $${s.est_fee_usd} · after fees ${s.total_after_fees}` }),
    table(["#", "Chain", "Step", "Amount", "Calldata", "Simulation"], data.steps.map(stepRow), "Plan steps"),
    el("button", { type: "button", id: "simulate-plan", text: "Simulate", onclick: () => simulatePlan().catch(report) }),
  );
}

async function simulatePlan() {
  const sender = plan.wallets[0].address;
  const chains = [...new Set(plan.steps.map((s) => s.chain))];
  for (const chain of chains) {
    const steps = plan.steps.filter((s) => s.chain === chain);
    const cells = steps.map((s) => document.querySelector(`#plan-steps tr[data-order="${s.order}"] .sim`));
    if (!SIMULATED_CHAINS.includes(chain)) {
      cells.forEach((c) => (c.textContent = `${chain} is not simulated by the service`));
      continue;
    }
    try {
      const result = await api("POST", "/simulate", { chain, sender, steps }, true);
      result.steps.forEach((r, i) => {
        const text = r.success ? `ok · gas ${r.gas}` : `reverted: ${r.error || r.status}`;
        cells[i].textContent = text;
        cells[i].className = `sim ${r.success ? "ok" : "bad"}`;
      });
    } catch (error) {
      cells.forEach((c) => (c.textContent = describe(error)));
    }
  }
}

async function submitPlan(event) {
  event.preventDefault();
  const form = event.target;
  plan.prompt = form.prompt.value.trim();
  plan.wallets = planWallets();
  plan.intents = [];
  plan.steps = [];
  try {
    await askIntent(plan.prompt, false);
  } catch (error) {
    $("plan-result").replaceChildren(el("p", { class: "error", role: "alert", text: describe(error) }));
  }
}

async function loadChains() {
  const meta = await api("GET", "/meta");
  const select = $("plan-form").chain;
  const chosen = select.value || "base";
  select.replaceChildren(...meta.chains.map((c) => el("option", { value: c, text: c })));
  select.value = meta.chains.includes(chosen) ? chosen : meta.chains[0];
}

// ---- an event's remedy (a plan the agent's event may carry; nothing here signs it) -------------------

function remedyContent(remedy) {
  const parts = [];
  const summary = remedy.summary;
  if (typeof summary === "string") parts.push(el("p", { text: summary }));
  else if (summary && typeof summary === "object") {
    parts.push(el("p", { text: Object.entries(summary).map(([k, v]) => `${k.replaceAll("_", " ")} ${num(v)}`).join(" · ") }));
  }
  for (const name of ["reason", "error", "unavailable_reason", "note"]) {
    if (typeof remedy[name] === "string") parts.push(el("p", { class: "muted", text: remedy[name] }));
  }
  const steps = Array.isArray(remedy.steps) ? remedy.steps : [];
  if (steps.length) {
    parts.push(table(["#", "Chain", "Step", "Amount", "Calldata", "Simulation"], steps.map(stepRow), "Remedy steps"));
  }
  const simulation = remedy.simulation;
  if (simulation && typeof simulation === "object") {
    const text = simulation.success ? `simulated ok · gas ${simulation.gas_used || ""}` : `simulation: ${simulation.error || "reverted"}`;
    parts.push(el("p", { class: simulation.success ? "sim ok" : "sim bad", text }));
  }
  return parts;
}

function remedyBox(item) {
  const body = el("div", { class: "remedy-body" }, ...remedyContent(item.remedy));
  const requote = el("button", {
    type: "button",
    text: "Rebuild the plan now",
    onclick: async () => {
      try {
        const fresh = await api("GET", `/events/${encodeURIComponent(item.id)}/plan`, undefined, true);
        body.replaceChildren(...remedyContent(fresh.remedy || fresh));
      } catch (error) {
        body.append(el("p", { class: "error", text: describe(error) }));
      }
    },
  });
  return el("details", { class: "remedy" }, el("summary", { text: "Remedy plan (unsigned)" }), body, requote);
}

// intentgate dashboard, the plans page: a request in plain English becomes intents (every clarification
// answered in the page, by choice or typed), then ordered unsigned steps with their calldata to copy, then
// one dry run of the whole plan across its bridges. Nothing is signed or sent.
"use strict";

const plan = { prompt: "", wallets: [], intents: [], steps: [] };

function planWallets() {
  const form = $("plan-form");
  return [{ address: form.wallet.value.trim(), chain: form.chain.value }];
}

function intentText(intent) {
  const amount = intent.amount === undefined ? "" : ["max", "chained"].includes(num(intent.amount)) ? `${num(intent.amount)} ` : `${humanNumber(intent.amount)} `;
  const where = intent.from_chain ? `from ${intent.from_chain} to ${intent.to_chain}` : intent.chain ? `on ${intent.chain}` : "";
  const protocol = intent.protocol ? `with ${intent.protocol}` : "";
  return [intent.action, `${amount}${intent.asset || ""}`.trim(), protocol, where].filter(Boolean).join(" ");
}

async function askIntent(prompt, followUp) {
  const box = $("plan-result");
  box.replaceChildren(el("p", { class: "muted", text: "Reading the request…" }));
  const body = { prompt, wallets: plan.wallets };
  if (followUp) body.clarify_follow_up = true;
  const data = await api("POST", "/intent", body, true);
  if (data.clarifications.length) {
    box.replaceChildren(
      ...data.clarifications.map((c, i) => {
        const holder = el("div", { class: "clarify", id: `plan-clarify-${i}` });
        showClarification(holder, c, (answer) => askIntent(answered(prompt, c.question, answer), true));
        return holder;
      }),
    );
    say("plan-read", "The service needs one more detail: answer below.");
    return;
  }
  plan.intents = data.intents;
  say("plan-read", "");
  box.replaceChildren(
    el("h3", { text: data.suggested_name || "Intents" }),
    el("p", { class: "muted", text: data.reasoning }),
    el("ol", { id: "plan-intents" }, ...data.intents.map((i) => el("li", { text: intentText(i) }))),
    el("div", { class: "row-actions" }, el("button", { type: "button", id: "build-plan", text: "Build the steps (5 credits)", onclick: (event) => busy(event.currentTarget, "plan-build", buildPlan) }), feedback("plan-build")),
    el("div", { id: "plan-steps" }),
  );
}

async function buildPlan() {
  const data = await api("POST", "/plan", { intents: plan.intents, wallets: plan.wallets }, true);
  plan.steps = data.steps;
  say("plan-build", "");
  const table = stepsTable(data.steps, "Plan steps");
  const sims = el("div", { class: "sim-box", id: "plan-simulation" });
  const wallet = plan.wallets[0].address;
  const { chains, skipped } = plannedChains(data.steps, wallet);
  const cost = chains.length * 5;
  const simulate = el("button", {
    type: "button",
    id: "simulate-plan",
    text: chains.length ? `Simulate the whole plan (${cost} credits)` : "Nothing here can be simulated",
    disabled: !chains.length,
    onclick: (event) =>
      busy(event.currentTarget, "plan-simulate", async () => {
        say("plan-simulate", "Simulating…");
        await simulateWhole(data.steps, wallet, table, sims);
        say("plan-simulate", "");
      }),
  });
  $("plan-steps").replaceChildren(
    el("p", { class: "plan-summary", text: summaryText(data.summary, data.steps.length) }),
    table,
    el("div", { class: "row-actions" }, simulate, feedback("plan-simulate")),
    skipped.length ? el("ul", { class: "plain muted" }, ...skipped.map((s) => el("li", { text: s.reason }))) : "",
    sims,
  );
}

async function submitPlan(event) {
  event.preventDefault();
  const form = event.target;
  plan.prompt = form.prompt.value.trim();
  plan.wallets = planWallets();
  plan.intents = [];
  plan.steps = [];
  await busy(form.querySelector("button[type=submit]"), "plan-read", async () => {
    try {
      await askIntent(plan.prompt, false);
      markIssues(form, null);
    } catch (error) {
      $("plan-result").replaceChildren();
      markIssues(form, error);
      throw error;
    }
  });
}

async function loadChains() {
  const select = $("plan-form").chain;
  if (select.options.length) return;
  const meta = await api("GET", "/meta");
  select.replaceChildren(...meta.chains.map((c) => el("option", { value: c, text: c })));
  select.value = meta.chains.includes("base") ? "base" : meta.chains[0];
}

const plansPage = {
  show: () => loadChains(),
  refresh: null,
};

function setUpPlans() {
  $("plan-form").addEventListener("submit", submitPlan);
}

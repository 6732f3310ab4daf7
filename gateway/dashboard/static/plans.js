// intentgate dashboard, the plans page: a request in plain English becomes intents (every clarification
// answered in the page, by choice or typed), then ordered unsigned steps with their calldata to copy,
// verified on a fork by default (what you send, receive and leave approved, in a wallet's words; a plan
// that is not proven is refused, the step named), then one dry run of the whole plan across its bridges.
// Nothing is signed or sent.
"use strict";

// `verify`: the operator's choice, kept across requests in this tab; on unless turned off.
const plan = { prompt: "", wallets: [], intents: [], steps: [], verify: true };

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
  say("plan-build", "");
  box.replaceChildren(
    el("h3", { text: data.suggested_name || "Intents" }),
    el("p", { class: "muted reasoning", text: data.reasoning }),
    el("ol", { id: "plan-intents" }, ...data.intents.map((i) => el("li", { text: intentText(i) }))),
    buildControls(),
    el("div", { id: "plan-steps" }),
  );
}

// Credits of POST /plan (docs/decisions.md): 5, and with verification 5 more per chain the intents name
// that /simulate runs (at least one).
function buildCost(intents, verify) {
  if (!verify) return 5;
  const named = new Set(intents.flatMap((i) => [i.chain, i.from_chain, i.to_chain]).filter(Boolean).map((c) => String(c).toLowerCase()));
  const simulated = [...named].filter((c) => SIMULATED_CHAINS.includes(c)).length;
  return 5 * (1 + Math.max(1, simulated));
}

function buildLabel() {
  const cost = buildCost(plan.intents, plan.verify);
  return plan.verify ? `Build and verify the steps (${cost} credits)` : `Build the steps (${cost} credits)`;
}

// The build button, the choice to verify beside it, and the notice both answer in.
function buildControls() {
  const button = el("button", { type: "button", id: "build-plan", text: buildLabel(), onclick: (event) => busy(event.currentTarget, "plan-build", buildPlan) });
  const choice = el("input", {
    type: "checkbox",
    id: "plan-verify",
    checked: plan.verify,
    "aria-describedby": "plan-verify-help",
    onchange: (event) => {
      plan.verify = event.currentTarget.checked;
      button.textContent = buildLabel();
    },
  });
  return el(
    "div",
    { class: "build-controls" },
    el("div", { class: "row-actions" }, button, el("label", { class: "check", for: "plan-verify" }, choice, "Verify on a fork")),
    el("p", { class: "sub", id: "plan-verify-help", text: "Runs the plan on a fork and holds what it does to your words before showing it." }),
    feedback("plan-build"),
  );
}

// A refused verification: the discrepancy and the step it names beside the build button, and what the
// plan would have done where it ran.
function showRefused(error) {
  const verification = error.body.verification;
  plan.steps = [];
  say("plan-build", `${refusalText(verification)} Turn off “Verify on a fork” to see the steps unproven.`, true);
  // The notice says what does not hold; the box adds what the plan would have done, where it ran.
  $("plan-steps").replaceChildren(verification.changes ? verificationView(verification, { discrepancies: false }) : "");
}

async function buildPlan() {
  const body = { intents: plan.intents, wallets: plan.wallets };
  if (plan.verify) body.options = { verify: true };
  $("plan-steps").replaceChildren(el("p", { class: "muted", text: plan.verify ? "Building the steps and running them on a fork…" : "Building the steps…" }));
  let data;
  try {
    data = await api("POST", "/plan", body, true);
  } catch (error) {
    if (!isRefusal(error)) {
      $("plan-steps").replaceChildren();
      throw error;
    }
    showRefused(error);
    return;
  }
  plan.steps = data.steps;
  say("plan-build", data.verification ? "Verified on a fork: it does what the intents say." : "");
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
  const verification = data.verification;
  if (verification) showResults(table, null, verification.steps || [], []);
  $("plan-steps").replaceChildren(
    el("p", { class: "plan-summary", text: summaryText(data.summary, data.steps.length) }),
    verification ? verificationView(verification) : "",
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

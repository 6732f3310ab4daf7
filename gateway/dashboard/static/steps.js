// intentgate dashboard, unsigned steps and their dry runs, as the plans page and an event's remedy show
// them: each step's chain, action, amount (a chained amount as its estimate), target, value and calldata
// to copy; then each step's simulated outcome with what it did in a wallet's words (changes.js), each
// chain's totals and each modelled bridge fill.
"use strict";

// Contract: /simulate takes these chains only (bsc plans but is not simulated).
const SIMULATED_CHAINS = ["ethereum", "base", "arbitrum", "optimism", "polygon", "solana"];
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function amountCell(step) {
  if (step.chained) {
    return cell(
      "Amount",
      "amount",
      el("span", {}, "≈ ", numberNode(step.chained.estimate_amount, step.asset)),
      el("span", { class: "sub", text: "chained: sized from the step before at sign time (re-encode it)" }),
    );
  }
  return cell("Amount", "amount", numberNode(step.amount, step.asset));
}

function targetCell(step) {
  if (!step.to) return cell("Target", "", el("span", { class: "muted", text: step.solana_format ? `Solana ${step.solana_format}` : "—" }));
  const value = step.value && step.value !== "0" ? el("span", { class: "sub" }, "value ", numberNode(step.value, "wei")) : "";
  return cell("Target", "target", el("span", { class: "mono wrap", text: step.to }), value);
}

function calldataCell(step) {
  const payload = step.data || step.solana_tx || "";
  if (!payload) return cell("Calldata", "", el("span", { class: "muted", text: "none" }));
  return cell(
    "Calldata",
    "calldata-cell",
    el("code", { class: "calldata scroll", tabindex: "0", "aria-label": `Calldata of step ${step.order}`, text: payload }),
    copyButton(payload, `Copy calldata of step ${step.order}`, "Copy calldata"),
  );
}

function stepRow(step) {
  const notes = [];
  if (step.wait_for_bridge) notes.push("wait for the bridge to land before the next steps");
  return el(
    "tr",
    { "data-order": String(step.order), "data-chain": step.chain },
    cell("#", "order", String(step.order)),
    cell("Chain", "", step.chain),
    cell(
      "Step",
      "",
      el("span", { text: step.description || step.action_type }),
      el("span", { class: "sub", text: [`${step.action_type} · ${step.protocol}`, ...notes].join(" · ") }),
    ),
    amountCell(step),
    targetCell(step),
    calldataCell(step),
    cell("Simulation", "sim", el("span", { class: "muted", text: "not simulated yet" })),
  );
}

function stepsTable(steps, caption) {
  return dataTable(["#", "Chain", "Step", "Amount", "Target", "Calldata", "Simulation"], steps.map(stepRow), caption, "steps-table");
}

function summaryText(summary, count) {
  return [
    plural(count, "step"),
    plural(Number(num(summary.bridge_count)), "bridge"),
    `est. fees $${summary.est_fee_usd}`,
    `after fees ${summary.total_after_fees}`,
  ].join(" · ");
}

// ---- dry runs -----------------------------------------------------------------------------------------

function resultText(result) {
  const mark = result.status ? `${result.status} ` : "";
  if (result.success) {
    const resized = result.amount !== undefined ? ` · ran with ${humanNumber(result.amount)}` : "";
    return `${mark}ok · gas ${result.gas}${resized}${result.error ? ` · ${result.error}` : ""}`;
  }
  return `${mark}${result.error || "failed"}`;
}

// Write each step's outcome into its row of `table`; `results` carry chain and order (whole-plan form)
// or follow the chain's steps in order (one-chain form).
function showResults(table, chain, results, chainSteps) {
  results.forEach((result, i) => {
    const order = result.order ?? (chainSteps[i] && chainSteps[i].order);
    const where = result.chain || chain;
    const row = table.querySelector(`tr[data-order="${order}"][data-chain="${CSS.escape(where)}"]`);
    if (!row) return;
    const target = row.querySelector(".sim");
    const said = result.changes && result.changes.sentences && result.changes.sentences.length;
    target.replaceChildren(el("span", { text: resultText(result) }), said ? changesList(result.changes, `What step ${order} does`, "compact") : "");
    target.className = `sim ${result.success ? "ok" : "bad"}`;
  });
}

function markNotRun(table, chain, reason) {
  for (const target of table.querySelectorAll(`tr[data-chain="${CSS.escape(chain)}"] .sim`)) {
    target.replaceChildren(el("span", { text: reason }));
    target.className = "sim muted";
  }
}

function chainLine(result) {
  const cost = result.total_cost ? ` · ${result.total_cost}` : "";
  const head = result.success ? "all steps succeed" : `fails: ${result.error || "a step failed"}`;
  return `${result.chain}: ${head} · gas ${result.gas_used} at ${result.gas_price}${cost}`;
}

function fillLine(fill) {
  const landed = fill.landed ? "landed" : `not landed: ${fill.error || "unknown"}`;
  return `${fill.protocol} fill of step ${fill.bridge_order} (${fill.from_chain} → ${fill.to_chain}), modelled: ${humanNumber(fill.amount)} ${fill.asset} ${landed}`;
}

// The chains of a plan to simulate whole: each simulated chain's steps with its sender (the wallet of
// that chain's address family), and the chains left out with why.
function plannedChains(steps, wallet) {
  const chains = [];
  const skipped = [];
  const evm = EVM_ADDRESS.test(wallet);
  for (const chain of [...new Set(steps.map((s) => s.chain))]) {
    const own = steps.filter((s) => s.chain === chain);
    if (!SIMULATED_CHAINS.includes(chain)) skipped.push({ chain, reason: `${chain} is planned but not simulated by the service` });
    else if ((chain === "solana") === evm) skipped.push({ chain, reason: `no ${chain === "solana" ? "Solana" : "EVM"} wallet was given to simulate ${chain} from` });
    else chains.push({ chain, sender: wallet, steps: own });
  }
  return { chains, skipped };
}

// Simulate a plan's steps whole (POST /simulate with `chains`: bridges' fills modelled on their
// destinations) and show the outcome in `table` and `box`.
async function simulateWhole(steps, wallet, table, box) {
  const { chains, skipped } = plannedChains(steps, wallet);
  for (const s of skipped) markNotRun(table, s.chain, s.reason);
  if (!chains.length) {
    box.replaceChildren(el("p", { class: "muted", text: "Nothing here can be simulated." }));
    return;
  }
  const result = await api("POST", "/simulate", { chains }, true);
  showResults(table, null, result.steps, []);
  const lines = (result.chains || [{ chain: chains[0].chain, ...result }]).map(chainLine);
  box.replaceChildren(
    el("p", { class: result.success ? "sim ok" : "sim bad", text: result.success ? `Simulated whole: every step succeeds · total ${result.total_cost}` : `Simulated whole: ${result.error}` }),
    el("ul", { class: "plain sim-lines" }, ...lines.map((line) => el("li", { text: line })), ...(result.fills || []).map((f) => el("li", { text: fillLine(f) })), ...skipped.map((s) => el("li", { class: "muted", text: s.reason }))),
  );
}

// The dry runs an event's remedy carries (`remedy.simulations`, one per chain), shown like a plan's.
function showSimulations(simulations, steps, table, box) {
  const lines = [];
  for (const sim of simulations) {
    if (!sim.simulated) {
      markNotRun(table, sim.chain, sim.reason || "not simulated");
      lines.push(el("li", { class: "muted", text: `${sim.chain}: not simulated: ${sim.reason || "no reason given"}` }));
      continue;
    }
    showResults(table, sim.chain, sim.steps || [], steps.filter((s) => s.chain === sim.chain));
    lines.push(el("li", { class: sim.success ? "sim ok" : "sim bad", text: chainLine(sim) }));
  }
  box.replaceChildren(el("ul", { class: "plain sim-lines" }, ...lines));
}

// intentgate dashboard, what a plan does in a wallet's words: its verification (proven on a fork, or
// refused with the discrepancy on the step it names), and the sentences of its changes, for the whole plan
// and for each step: what you send, what you receive (at least a swap's minimum), what others receive,
// what each spender is still allowed, the gas. Figures are formatted here from the sentences' exact
// fields, the exact value on hover; the plans page and an event's remedy share this renderer.
"use strict";

// What POST /plan with options.verify answers (422) when a plan is not proven.
const REFUSALS = ["effect_mismatch", "plan_unverified"];

function isRefusal(error) {
  return error instanceof ApiFailure && REFUSALS.includes(error.code) && !!(error.body && error.body.verification);
}

// A sentence's amount of its asset: formatted (rounded down when it is a minimum), or its raw units when
// the token's decimals are unknown.
function sentenceFigure(s) {
  if (s.amount === undefined || s.amount === null) {
    return el("span", { class: "num", text: `${s.amount_raw ?? "?"} raw units of token ${s.asset}` });
  }
  return numberNode(s.amount, s.asset, { down: !!s.at_least });
}

function usdNote(s) {
  if (s.usd === undefined || s.usd === null) return el("span", { class: "muted", text: " (no USD price)" });
  return ` (${usdText(s.usd)})`;
}

function whoNode(address, label) {
  const node = el("span", { class: label ? "" : "mono wrap", text: label || address });
  if (label) node.title = address;
  return node;
}

// One sentence: its words with the figures formatted; the service's own text when its kind is new here.
function sentenceParts(s) {
  const where = s.chain ? ` on ${s.chain}` : "";
  const fill = s.modelled ? " when the bridge fills (modelled)" : "";
  switch (s.kind) {
    case "send":
      if (s.token_id) return [`you give up ${s.asset} #${s.token_id}`];
      return ["you send ", sentenceFigure(s), usdNote(s), where];
    case "receive":
      if (s.token_id) return [`you receive ${s.asset} #${s.token_id}`];
      return [`you receive ${s.at_least ? "at least " : ""}`, sentenceFigure(s), usdNote(s), where, fill];
    case "owe_more":
    case "owe_less":
      return ["you owe ", sentenceFigure(s), s.kind === "owe_more" ? " more" : " less", where];
    case "gain":
      return [whoNode(s.address), " receives ", sentenceFigure(s), where, fill];
    case "allowed":
      return [
        whoNode(s.spender, s.spender_label),
        " is allowed ",
        s.unlimited ? `an unlimited amount of ${s.asset}` : sentenceFigure(s),
        " after this",
      ];
    case "gas":
      return ["you pay about ", sentenceFigure(s), usdNote(s), ` in gas${where}`];
    default:
      return [s.text];
  }
}

function sentenceItem(s) {
  return el("li", { "data-kind": s.kind }, ...sentenceParts(s));
}

// The sentences of a plan's or a step's `changes`; a plan stored before sentences existed shows its
// wording as written.
function changesList(changes, label, extraClass = "") {
  const sentences = (changes && changes.sentences) || [];
  const items = sentences.length
    ? sentences.map(sentenceItem)
    : ((changes && changes.wording) || []).map((text) => el("li", { text }));
  if (!items.length) return el("p", { class: "muted", text: "No balance or allowance changes." });
  return el("ul", { class: `changes ${extraClass}`.trim(), "aria-label": label }, ...items);
}

// A discrepancy as the step it names and what does not hold ("steps[1]" is step 2).
function discrepancyText(d) {
  const index = /^steps\[(\d+)\]/.exec(d.field || "");
  const message = d.message || "";
  if (!index) return message;
  const order = Number(index[1]) + 1;
  const named = message.toLowerCase().startsWith(`step ${order} `);
  const text = named ? message : `step ${order}: ${message}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function refusalText(verification) {
  const found = (verification.discrepancies || []).map(discrepancyText).join("; ");
  return `Not verified: ${found || "the plan could not be proven"}.`;
}

// A plan's verification: the badge, the discrepancies when it is not verified (unless a notice beside
// the control already says them), what the plan does (or would have done) in a wallet's words, the
// bridge fills modelled, and what was proven.
function verificationView(verification, { heading = "What this plan does", discrepancies = true } = {}) {
  const verified = verification.verified === true;
  const totals = [
    verification.gas_used ? `gas ${verification.gas_used}` : "",
    verification.total_cost ? `cost ${verification.total_cost}` : "",
  ].filter(Boolean);
  const parts = [
    el(
      "p",
      { class: "verdict" },
      el("span", { class: `badge ${verified ? "verified" : "unverified"}`, text: verified ? "✓ verified on a fork" : "✗ not verified" }),
      totals.length ? el("span", { class: "muted", text: ` ${totals.join(" · ")}` }) : "",
    ),
  ];
  if (!verified && discrepancies) {
    const found = (verification.discrepancies || []).map((d) => el("li", { "data-field": d.field, text: discrepancyText(d) }));
    if (found.length) parts.push(el("ul", { class: "discrepancies", "aria-label": "Discrepancies" }, ...found));
  }
  if (verification.changes) {
    parts.push(el("h4", { text: verified ? heading : "What the plan would have done" }), changesList(verification.changes, verified ? heading : "What the plan would have done"));
  }
  const fills = verification.fills || [];
  if (fills.length) parts.push(el("ul", { class: "plain sim-lines muted" }, ...fills.map((f) => el("li", { text: fillLine(f) }))));
  const checks = verification.checks || [];
  if (checks.length) {
    parts.push(el("details", { class: "checks" }, el("summary", { text: `What was proven (${plural(checks.length, "check")})` }), el("ul", {}, ...checks.map((c) => el("li", { text: c })))));
  }
  return el("section", { class: "verification", "data-verified": String(verified), "aria-label": "Verification" }, ...parts);
}

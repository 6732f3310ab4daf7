// intentgate dashboard, shared helpers: the API call (key from sessionStorage, sent as a Bearer header,
// never in a URL; the rate budget read from each answer's RateLimit headers), DOM building with
// textContent only, feedback shown beside the control that caused it, two-click confirmations, secrets
// shown once, tables that become cards on a phone, and pagers. Loaded first.
"use strict";

const API = "/v1beta";
const KEY_ITEM = "intentgate.api_key";

const $ = (id) => document.getElementById(id);

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined && child !== "") node.append(child);
  return node;
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, String(value));
  }
  for (const child of children) node.append(child);
  return node;
}

// ---- the API ------------------------------------------------------------------------------------------

// What the latest answer said of this key's rate window: automatic refreshes leave a reserve of it to
// the operator's own clicks, and stop until the window turns when a 429 arrives.
const budget = { limit: null, remaining: null, resetAt: 0, blockedUntil: 0 };
// Share of the window's requests automatic refreshes never use.
const BUDGET_RESERVE = 0.3;

function noteBudget(response) {
  const limit = Number(response.headers.get("RateLimit-Limit"));
  const remaining = Number(response.headers.get("RateLimit-Remaining"));
  const reset = Number(response.headers.get("RateLimit-Reset"));
  if (response.headers.has("RateLimit-Limit") && Number.isFinite(limit)) {
    budget.limit = limit;
    budget.remaining = remaining;
    budget.resetAt = Date.now() + reset * 1000;
  }
  if (response.status === 429) {
    const wait = Number(response.headers.get("Retry-After")) || 60;
    budget.blockedUntil = Date.now() + wait * 1000;
  }
}

// Whether an automatic refresh may spend a request now.
function budgetAllows() {
  const now = Date.now();
  if (now < budget.blockedUntil) return false;
  if (budget.limit === null || now >= budget.resetAt) return true;
  return budget.remaining > Math.max(2, Math.ceil(budget.limit * BUDGET_RESERVE));
}

class ApiFailure extends Error {
  constructor(status, body) {
    super((body && body.friendly_message) || `The service answered ${status}.`);
    this.status = status;
    this.code = body && body.error;
    this.issues = (body && body.issues) || [];
    // The whole answer: a refused plan carries its verification beside the envelope.
    this.body = body;
  }
}

// Set by app.js: what to do when the key is refused.
const session = { onRefused: () => {} };

// Numbers from the planning routes are money: they are kept as their exact JSON text (JSON.rawJSON) so a
// request built from a response re-sends exactly what the service said, never a float's rounding of it.
const EXACT = typeof JSON.rawJSON === "function";

function exactReviver(_key, value, context) {
  // Safe integers (step orders, counts, whole amounts) are exact as numbers; the rest keep their text.
  if (!EXACT || typeof value !== "number" || !context || (Number.isSafeInteger(value) && /^-?\d+$/.test(context.source))) {
    return value;
  }
  return JSON.rawJSON(context.source);
}

function num(value) {
  return value !== null && typeof value === "object" && "rawJSON" in value ? value.rawJSON : String(value);
}

async function api(method, path, body, exact = false) {
  const headers = { Authorization: `Bearer ${sessionStorage.getItem(KEY_ITEM)}` };
  const init = { method, headers, cache: "no-store" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const response = await fetch(API + path, init);
  noteBudget(response);
  const text = response.status === 204 ? "" : await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text, exact ? exactReviver : undefined) : null;
  } catch {
    data = null;
  }
  if (response.status === 401) session.onRefused("The API key was refused (unknown or revoked). Sign in again.");
  if (!response.ok) throw new ApiFailure(response.status, data);
  return data;
}

function describe(error) {
  if (!(error instanceof ApiFailure)) return `The request failed: ${error.message}`;
  if (error.status === 429 && error.code === "rate_limited") {
    const wait = Math.max(1, Math.ceil((budget.blockedUntil - Date.now()) / 1000));
    return `${error.message} Try again in ${wait} s.`;
  }
  const issues = error.issues.map((i) => `${i.field}: ${i.message}`).join("; ");
  return issues ? `${error.message} (${issues})` : error.message;
}

// ---- feedback beside the control ----------------------------------------------------------------------

// Messages kept by key for a while, so a list redrawn after an action still shows what the action did.
const NOTE_MS = 20_000;
const notes = new Map();

function feedback(key, extraClass = "") {
  const node = el("p", { class: `feedback ${extraClass}`.trim(), role: "status", "data-feedback": key });
  const note = notes.get(key);
  if (note && Date.now() - note.at < NOTE_MS) fill(node, note);
  return node;
}

function fill(node, note) {
  node.textContent = note.text;
  node.classList.toggle("bad", note.bad);
  node.classList.toggle("ok", !note.bad && note.text !== "");
}

function say(key, text, bad = false) {
  const note = { text, bad, at: Date.now() };
  notes.set(key, note);
  for (const node of document.querySelectorAll(`[data-feedback="${CSS.escape(key)}"]`)) fill(node, note);
}

function sayError(key, error) {
  say(key, describe(error), true);
}

// Mark the form's fields an error's issues name (`wallets[0]` marks `wallets`, `url` marks `url`).
function markIssues(form, error) {
  for (const field of form.querySelectorAll("[aria-invalid]")) field.removeAttribute("aria-invalid");
  const issues = error instanceof ApiFailure ? error.issues : [];
  for (const issue of issues) {
    const name = String(issue.field).split(/[.[]/)[0];
    const field = form.elements.namedItem(name);
    if (field && "setAttribute" in field) field.setAttribute("aria-invalid", "true");
  }
}

// Run `work` with `button` disabled (no double submits), reporting under `key`.
async function busy(button, key, work) {
  if (button) button.disabled = true;
  try {
    return await work();
  } catch (error) {
    sayError(key, error);
    return undefined;
  } finally {
    if (button) button.disabled = false;
  }
}

// A button that acts on its second click (the first arms it, for a few seconds): no modal in the way.
const CONFIRM_MS = 6000;

function confirmButton(label, confirmLabel, action, className = "danger") {
  const button = el("button", { type: "button", class: className, text: label });
  let timer = null;
  const disarm = () => {
    delete button.dataset.armed;
    button.textContent = label;
  };
  button.addEventListener("click", async () => {
    if (button.dataset.armed !== "yes") {
      button.dataset.armed = "yes";
      button.textContent = confirmLabel;
      clearTimeout(timer);
      timer = setTimeout(disarm, CONFIRM_MS);
      return;
    }
    clearTimeout(timer);
    disarm();
    button.disabled = true;
    try {
      await action();
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

function copyButton(text, label, name = "Copy") {
  return el("button", {
    type: "button",
    class: "copy",
    "aria-label": label,
    text: name,
    onclick: async (event) => {
      const button = event.currentTarget;
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = "Copied";
      } catch (error) {
        button.textContent = "Select and copy it";
        button.title = `The browser refused the clipboard (${error.message}).`;
      }
    },
  });
}

// A secret the service shows once (an API key, a signing secret): where to copy it, and a warning.
function secretBox(title, secret, detail) {
  const field = el("input", { type: "text", readonly: true, value: secret, class: "secret-value", "aria-label": title, spellcheck: "false" });
  const box = el(
    "div",
    { class: "secret", role: "alert" },
    el("h3", { text: title }),
    el("p", { text: `Shown once: copy it now. The service keeps only its hash and cannot show it again. ${detail || ""}`.trim() }),
    el("div", { class: "secret-row" }, field, copyButton(secret, `Copy ${title}`)),
  );
  box.append(el("button", { type: "button", text: "I have stored it", onclick: () => box.remove() }));
  return box;
}

// ---- tables that become cards on a phone --------------------------------------------------------------

function cell(label, className, ...children) {
  return el("td", { "data-label": label, class: className || undefined }, ...children);
}

// A table of `rows` under `headings`; below 700 px each row is a card whose cells carry their heading.
function dataTable(headings, rows, caption, className = "") {
  return el(
    "table",
    { class: `cards ${className}`.trim() },
    el("caption", { class: "visually-hidden", text: caption }),
    el("thead", {}, el("tr", {}, ...headings.map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, ...rows),
  );
}

function fact(label, ...value) {
  return el("div", {}, el("span", { class: "label", text: label }), el("strong", {}, ...value));
}

function idText(text) {
  return el("span", { class: "id", text });
}

// ---- pages of a listing -------------------------------------------------------------------------------

// Cursor pages: the cursors of the pages before this one, this page's cursor, and the next one's.
function newPaging() {
  return { before: [], cursor: null, next: null };
}

function pager(paging, label, load) {
  const page = paging.before.length + 1;
  const newer = el("button", {
    type: "button",
    text: "Newer",
    disabled: paging.before.length === 0,
    onclick: () => {
      paging.next = null;
      paging.cursor = paging.before.pop() ?? null;
      load();
    },
  });
  const older = el("button", {
    type: "button",
    text: "Older",
    disabled: !paging.next,
    onclick: () => {
      paging.before.push(paging.cursor);
      paging.cursor = paging.next;
      load();
    },
  });
  return el("nav", { class: "pager", "aria-label": label }, newer, el("span", { class: "muted", text: `Page ${page}` }), older);
}

// intentgate dashboard, shared helpers: the API call (key from sessionStorage, sent as a Bearer header, never
// in a URL), DOM building with textContent only, times and notices. Loaded before the other scripts.
"use strict";

const API = "/v1beta";
const KEY_ITEM = "intentgate.api_key";

const $ = (id) => document.getElementById(id);

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
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

function when(value) {
  if (value === null || value === undefined) return "not yet";
  const date = typeof value === "number" ? new Date(value) : new Date(String(value));
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString();
}

function notice(text, bad = false) {
  const box = $("notice");
  box.textContent = text;
  box.classList.toggle("bad", bad);
}

function table(headings, rows, label) {
  // Wide tables scroll inside their own box so the page never scrolls sideways on a phone.
  return el(
    "div",
    { class: "scroll", tabindex: "0", role: "region", "aria-label": label },
    el(
      "table",
      {},
      el("thead", {}, el("tr", {}, ...headings.map((h) => el("th", { scope: "col", text: h })))),
      el("tbody", {}, ...rows),
    ),
  );
}

class ApiFailure extends Error {
  constructor(status, body) {
    super((body && body.friendly_message) || `The service answered ${status}.`);
    this.status = status;
    this.code = body && body.error;
    this.issues = (body && body.issues) || [];
  }
}

// Set by app.js: what to do when the key is refused.
const session = { onRefused: () => {} };

// Numbers from the planning routes are money: they are kept as their exact JSON text (JSON.rawJSON) so a
// request built from a response re-sends exactly what the service said, never a float's rounding of it.
const EXACT = typeof JSON.rawJSON === "function";

function exactReviver(_key, value, context) {
  // Safe integers (step orders, counts, whole amounts) are exact as numbers; the rest keep their text.
  if (!EXACT || typeof value !== "number" || !context || Number.isSafeInteger(value) && /^-?\d+$/.test(context.source)) {
    return value;
  }
  return JSON.rawJSON(context.source);
}

function num(value) {
  return value !== null && typeof value === "object" && "rawJSON" in value ? value.rawJSON : String(value);
}

async function api(method, path, body, exact = false) {
  const headers = { Authorization: `Bearer ${sessionStorage.getItem(KEY_ITEM)}` };
  const init = { method, headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const response = await fetch(API + path, init);
  const text = response.status === 204 ? "" : await response.text();
  const data = text ? JSON.parse(text, exact ? exactReviver : undefined) : null;
  if (response.status === 401) session.onRefused("The API key was refused (unknown or revoked). Sign in again.");
  if (!response.ok) throw new ApiFailure(response.status, data);
  return data;
}

function describe(error) {
  if (!(error instanceof ApiFailure)) return `Request failed: ${error.message}`;
  const issues = error.issues.map((i) => `${i.field}: ${i.message}`).join("; ");
  return issues ? `${error.message} (${issues})` : error.message;
}

function report(error) {
  notice(describe(error), true);
}

// intentgate dashboard, numbers and times for people. Amounts arrive as exact decimal text ("2.2E+3",
// "500.123456", a 60-digit integer); they are formatted from their digits, never through a float, and the
// exact value is kept for the hover title. Loaded before the scripts that render data.
"use strict";

// Past this many integer digits a value is written as a mantissa and a power of ten (1.16 × 10⁵⁹).
const COMPACT_DIGITS = 16;
const SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹";
const NUMBER_FORMAT = new Intl.NumberFormat();
const DECIMAL_MARK = NUMBER_FORMAT.formatToParts(1.5).find((p) => p.type === "decimal").value;

// Exact decimal text -> {neg, int, frac} in plain digits ("2.2E+3" -> int "2200"), or null.
function parseDecimal(value) {
  const text = value !== null && typeof value === "object" && "rawJSON" in value ? value.rawJSON : String(value);
  const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?\s*$/.exec(text);
  if (!m || (!m[2] && !m[3])) return null;
  const digits = (m[2] || "") + (m[3] || "");
  const point = (m[2] || "").length + Number(m[4] || 0);
  let int;
  let frac;
  if (point <= 0) {
    int = "0";
    frac = "0".repeat(-point) + digits;
  } else if (point >= digits.length) {
    int = digits + "0".repeat(point - digits.length);
    frac = "";
  } else {
    int = digits.slice(0, point);
    frac = digits.slice(point);
  }
  int = int.replace(/^0+(?=\d)/, "") || "0";
  frac = frac.replace(/0+$/, "");
  const zero = /^0*$/.test(int + frac);
  return { neg: m[1] === "-" && !zero, int, frac };
}

// The exact value in plain digits, no exponent: the hover title of every formatted number.
function plainDecimal(value) {
  const d = parseDecimal(value);
  if (!d) return String(value);
  return `${d.neg ? "-" : ""}${d.int}${d.frac ? "." + d.frac : ""}`;
}

// Round the digits `int.frac` to `places` fraction digits: half up, or down (toward zero) when `down`.
function roundDigits(int, frac, places, down = false) {
  if (frac.length <= places) return { int, frac };
  const kept = int + frac.slice(0, places);
  let rounded = !down && frac[places] >= "5" ? (BigInt(kept) + 1n).toString() : kept.replace(/^0+(?=\d)/, "");
  rounded = rounded.padStart(places + 1, "0");
  const cut = rounded.length - places;
  return { int: rounded.slice(0, cut), frac: rounded.slice(cut).replace(/0+$/, "") };
}

function grouped(int) {
  return NUMBER_FORMAT.format(BigInt(int));
}

function superscript(n) {
  return String(n).replace(/-/g, "⁻").replace(/\d/g, (d) => SUPERSCRIPT[Number(d)]);
}

// A decimal for reading: grouped integer digits, a few significant fraction digits, never an exponent
// form like 2.2E+3; huge values as a mantissa times a power of ten. Rounded half up, or with `down`
// toward zero: a minimum ("at least 0.03298 WETH") must stay true of the exact figure.
function humanNumber(value, { down = false } = {}) {
  const d = parseDecimal(value);
  if (!d) return String(value);
  const sign = d.neg ? "-" : "";
  if (d.int.length >= COMPACT_DIGITS) {
    const exponent = d.int.length - 1;
    const r = roundDigits(d.int[0], d.int.slice(1, 4), 2, down);
    if (r.int.length > 1) return `${sign}1 × 10${superscript(exponent + 1)}`;
    return `${sign}${r.int}${r.frac ? DECIMAL_MARK + r.frac : ""} × 10${superscript(exponent)}`;
  }
  let places;
  if (d.int !== "0") places = Math.max(0, Math.min(6, 7 - d.int.length));
  else {
    const zeros = d.frac.match(/^0*/)[0].length;
    places = zeros + 4; // four significant digits of a small value
  }
  const r = roundDigits(d.int, d.frac, places, down);
  return `${sign}${grouped(r.int)}${r.frac ? DECIMAL_MARK + r.frac : ""}`;
}

// A span holding a formatted number, the exact value on hover (and for assistive technology); options
// as humanNumber's.
function numberNode(value, suffix = "", options = {}) {
  const exact = plainDecimal(value);
  const shown = humanNumber(value, options);
  const node = el("span", { class: "num", text: suffix ? `${shown} ${suffix}` : shown });
  node.title = suffix ? `${exact} ${suffix}` : exact;
  return node;
}

// A USD figure as the service wrote it (cents, or six decimals under a cent), its integer digits grouped;
// never re-rounded. Anything else is shown as it came.
function usdText(value) {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(num(value));
  if (!m) return String(value);
  return `${m[1]}$${grouped(m[2])}${m[3] ? DECIMAL_MARK + m[3] : ""}`;
}

// A health factor read from a position with no debt is uint256's maximum scaled by 1e18 (about 1.16e59).
function readingNode(value, kind) {
  const d = parseDecimal(value);
  if (d && /health/.test(kind || "") && d.int.length > 30) {
    const node = el("span", { class: "num", text: "no debt (∞)" });
    node.title = plainDecimal(value);
    return node;
  }
  return numberNode(value);
}

const DAY_MS = 86_400_000;

// A moment for reading: the time today, or the date and time; the full ISO instant on hover.
function timeNode(ms) {
  if (ms === null || ms === undefined) return el("span", { class: "muted", text: "never" });
  const date = new Date(typeof ms === "number" ? ms : String(ms));
  if (Number.isNaN(date.getTime())) return el("span", { text: String(ms) });
  const today = new Date().toDateString() === date.toDateString();
  const text = today
    ? date.toLocaleTimeString()
    : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  const node = el("time", { datetime: date.toISOString(), text });
  node.title = date.toISOString();
  return node;
}

function timeText(ms) {
  if (ms === null || ms === undefined) return "never";
  return new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

// How long ago, in the largest whole unit: "just now", "4 min ago", "3 h ago", "2 days ago".
function agoText(ms) {
  const seconds = Math.round((Date.now() - ms) / 1000);
  if (seconds < 45) return "just now";
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < DAY_MS / 1000) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86400)} days ago`;
}

function plural(count, one, many = `${one}s`) {
  return `${grouped(String(count))} ${count === 1 ? one : many}`;
}

// intentgate dashboard: plain JavaScript, no build step. One page per area at its own URL
// (/dashboard/account, /agents, /events, /events/<id>, /deliveries, /webhooks, /plans), drawn by this file
// from the URL, with the browser's back and forward. The API key lives in sessionStorage only (this tab)
// and travels as `Authorization: Bearer` to /v1beta, never in a URL; everything the API returns is written
// with textContent, never as HTML. Helpers are in core.js and format.js, each area in its own file.
"use strict";

const AREAS = {
  account: { title: "Account and keys", view: "view-account", nav: "account", page: accountPage },
  agents: { title: "Agents", view: "view-agents", nav: "agents", page: agentsPage },
  events: { title: "Events", view: "view-events", nav: "events", page: eventsPage },
  event: { title: "Event", view: "view-event", nav: "events", page: eventPage },
  deliveries: { title: "Deliveries", view: "view-deliveries", nav: "events", page: deliveriesPage },
  webhooks: { title: "Webhook endpoints", view: "view-webhooks", nav: "webhooks", page: webhooksPage },
  plans: { title: "Plans", view: "view-plans", nav: "plans", page: plansPage },
};
const DEFAULT_AREA = "agents";
const EVENT_ID = /^evt_[0-9A-HJKMNP-TV-Z]{26}$/;

let shown = null;

function route() {
  const [area, id] = location.pathname.replace(/^\/dashboard\/?/, "").split("/");
  if (area === "events" && id && EVENT_ID.test(id)) return { name: "event", id };
  if (AREAS[area] && area !== "event" && !id) return { name: area };
  return { name: DEFAULT_AREA, moved: true };
}

function currentArea() {
  return route().name;
}

function currentEventId() {
  const r = route();
  return r.name === "event" ? r.id : null;
}

// Keep a page's filters in its URL, so a reload or a shared link shows the same list.
function setQuery(filters) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  const query = params.toString();
  history.replaceState(null, "", location.pathname + (query ? `?${query}` : ""));
}

async function render(moveFocus = false) {
  const r = route();
  if (r.moved) history.replaceState(null, "", `/dashboard/${r.name}`);
  const area = AREAS[r.name];
  if (shown && shown !== area && shown.page.leave) shown.page.leave();
  shown = area;
  for (const each of Object.values(AREAS)) $(each.view).hidden = each !== area;
  // Events, one event and deliveries share one section: its heading names the one shown.
  for (const section of document.querySelectorAll("section.view")) section.hidden = !section.contains($(area.view));
  if (area.nav === "events") $("events-title").textContent = area.title;
  for (const link of document.querySelectorAll("#nav a")) {
    if (link.dataset.area === area.nav) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  for (const link of document.querySelectorAll(".subnav a")) {
    if (link.dataset.area === r.name || (r.name === "event" && link.dataset.area === "events")) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  document.title = `${area.title} · intentgate`;
  live.listeners.clear();
  if (area.page.onEvent) live.listeners.add(area.page.onEvent);
  refreshWith(area.page.refresh);
  if (moveFocus) $(area.view).closest("section").querySelector("h2").focus();
  try {
    await area.page.show(new URLSearchParams(location.search), r.id);
  } catch (error) {
    sayError(`page:${r.name}`, error);
  }
}

function go(href) {
  history.pushState(null, "", href);
  render(true);
}

// ---- session ------------------------------------------------------------------------------------------

function showApp(signedIn) {
  $("sign-in-view").hidden = signedIn;
  $("app-view").hidden = !signedIn;
  $("sign-out").hidden = !signedIn;
  $("nav").hidden = !signedIn;
  $("live-link").hidden = !signedIn;
  if (!signedIn) $("who").textContent = "";
}

function signOut(message = "") {
  sessionStorage.removeItem(KEY_ITEM);
  resetLive();
  refreshWith(null);
  shown = null;
  notes.clear();
  for (const area of Object.values(AREAS)) if (area.page.leave) area.page.leave();
  for (const id of ["agents-list", "events-list", "event-detail", "deliveries-list", "endpoints", "keys", "plan-result", "new-key"]) $(id).replaceChildren();
  showApp(false);
  $("sign-in-error").textContent = message;
  $("key-input").focus();
}

async function start() {
  let account;
  try {
    account = await api("GET", "/account");
  } catch (error) {
    signOut(error instanceof ApiFailure && error.status === 401 ? "The API key was refused (unknown or revoked)." : describe(error));
    return;
  }
  $("who").textContent = `tenant ${account.tenant}`;
  showApp(true);
  startLive();
  await render(false);
}

document.addEventListener("DOMContentLoaded", () => {
  session.onRefused = signOut;
  $("sign-in-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const key = $("key-input").value.trim();
    $("key-input").value = "";
    if (!key) return;
    sessionStorage.setItem(KEY_ITEM, key);
    $("sign-in-error").textContent = "";
    start();
  });
  $("sign-out").addEventListener("click", () => signOut());
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-route]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    go(link.getAttribute("href"));
  });
  window.addEventListener("popstate", () => {
    if (sessionStorage.getItem(KEY_ITEM)) render(true);
  });
  for (const button of document.querySelectorAll("[data-refresh]")) {
    button.addEventListener("click", () => refreshNow(true));
  }
  setUpAccount();
  setUpAgents();
  setUpEvents();
  setUpWebhooks();
  setUpPlans();
  if (sessionStorage.getItem(KEY_ITEM)) start();
  else showApp(false);
});

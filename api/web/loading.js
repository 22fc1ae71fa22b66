// Reading the screen's state from the server: on every navigation (load), and now and then
// while the page is open (poll), since the other phones at the table change the game too.

import { Api, ApiError } from "./api.js";
import { focusScreen, h, listNames, root, show } from "./dom.js";
import { memory } from "./memory.js";
import { app, readRoute, selectedRound, takeTokenFromLink } from "./state.js";
import { backClosesSheet, closeSheet, sheet, toast } from "./sheet.js";
import { renderHome } from "./home.js";
import { render } from "./game.js";

const POLL_MS = 5000;

export async function load() {
  const route = readRoute();
  app.route = route;
  if (!route.game) {
    app.api = null;
    app.game = null;
    renderHome();
    return;
  }
  const token = memory.token(app.route.game) || null;
  if (!app.api || app.api.gameId !== app.route.game || app.api.token !== token) {
    app.api = new Api(app.route.game, token);
    app.game = null;
    app.photoCache = { id: null, svg: null };
  }
  app.loading += 1;
  app.generation += 1;
  // Until the new screen is in, the old one takes no taps (they would act on it).
  if (app.game) root.classList.add("navigating");
  else show(h("p", { class: "loading" }, "Loading the game…"));
  try {
    const state = await fetchState(app.api, route);
    if (app.route !== route) return; // a newer navigation took over
    Object.assign(app, state);
    setOffline(false);
    memory.remember(app.game, app.standings, route);
    render();
  } catch (error) {
    if (app.route !== route) return;
    if (error instanceof ApiError && error.status === 404 && !app.game) {
      renderHome(app.route.game);
    } else if (error instanceof ApiError && error.offline) {
      setOffline(true);
      if (app.game) render();
      else show(offlinePanel());
    } else {
      toast(error.message, "error");
      if (app.game) render();
    }
  } finally {
    app.loading -= 1;
    app.generation += 1;
    if (!app.loading) root.classList.remove("navigating");
  }
}

// The state of the screen the route names, read afresh from the server.
async function fetchState(api = app.api, route = app.route) {
  const [game, standings] = await Promise.all([api.readGame(), api.readStandings()]);
  const number = selectedRound(game, route);
  const seat = route.seat && route.seat <= game.players.length ? route.seat : null;
  const [round, collection] = await Promise.all([
    api.readRound(number),
    seat ? api.readCollection(number, seat) : Promise.resolve(null),
  ]);
  return { game, standings, round, collection };
}

export async function fetchAll() {
  Object.assign(app, await fetchState());
}

export function snapshot() {
  return JSON.stringify([app.game, app.standings, app.round, app.collection]);
}

function offlinePanel() {
  return h(
    "section",
    { class: "panel" },
    h("h1", {}, "No connection"),
    h("p", {}, "The game is kept on the server; it will show again as soon as the phone is back online."),
    h("button", { class: "button primary", onclick: () => load() }, "Try again"),
  );
}

export function setOffline(offline) {
  document.getElementById("offline").hidden = !offline;
}

// Other phones at the table change the game too: look again now and then, and whenever
// the connection comes back. Never while this phone is in the middle of something.
async function poll() {
  if (!app.game || document.hidden || app.busy || app.loading || app.uploading) return;
  if (sheet.open || app.drawing || app.polling) return;
  app.polling = true;
  try {
    await lookAgain();
  } finally {
    app.polling = false;
  }
}

async function lookAgain() {
  const generation = app.generation;
  let state;
  try {
    if (await app.api.gameUnchanged()) {
      setOffline(false);
      return;
    }
    state = await fetchState();
  } catch (error) {
    if (error instanceof ApiError && error.offline) setOffline(true);
    return;
  }
  setOffline(false);
  // A write or a navigation since the poll began has newer news than the poll.
  if (generation !== app.generation || app.busy || app.loading || app.uploading) return;
  const news = newsFromElsewhere(app.game, state.game, state.standings);
  Object.assign(app, state);
  // The games on this phone (home) keep the winner as it now stands, a fix included.
  memory.remember(app.game, app.standings, app.route);
  if (snapshot() !== app.renderedData && !sheet.open && !app.drawing) render();
  if (news) toast(news, "info");
}

// What another phone did that changes where this one stands, said rather than only shown:
// the game over (the winner had sat 1.7 screens down, unannounced), a recorded round
// opened to fix, or recorded again.
function newsFromElsewhere(before, after, standings) {
  if (!before || before.id !== after.id) return null;
  if (before.status === "playing" && after.status === "finished") {
    const winners = standings?.winners ?? [];
    return `The game is over: ${listNames(winners)} ${winners.length === 1 ? "wins" : "share the win"}.`;
  }
  for (const round of after.round_states) {
    const was = before.round_states.find((r) => r.number === round.number)?.status;
    if (was === "recorded" && round.status === "reopened") {
      return `Round ${round.number} was opened on another phone, to fix it.`;
    }
    if (was === "reopened" && round.status === "recorded") {
      return `Round ${round.number} was recorded again on another phone.`;
    }
  }
  return null;
}

export function startPolling() {
  setInterval(poll, POLL_MS);
  window.addEventListener("online", () => (app.game ? poll() : load()));
  // Back leaves the screen a sheet was opened on: the sheet goes with it, not left open
  // over the next screen, its choices aimed at a review no longer shown.
  // An edit link opened where its game's view link is shown changes only the fragment:
  // its token is taken then too.
  window.addEventListener("popstate", () => {
    if (backClosesSheet()) return;
    takeTokenFromLink();
    closeSheet();
    load().then(focusScreen);
  });
  window.addEventListener("hashchange", () => {
    if (takeTokenFromLink()) load();
  });
}

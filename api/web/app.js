// The table-side page: start a game, photograph each player's cards, review and correct
// the detections, record rounds, follow the standings. Everything lives on the server:
// the page keeps only the game id and the edit token (URL and localStorage), so a
// refresh or a lost connection loses nothing.

import { Api, ApiError } from "./api.js";
import {
  BREAKDOWN,
  BY_KEY,
  CATEGORIES,
  HAND_SIZE,
  MAX_ROUNDS,
  SEAT_COLOURS,
  boxName,
  inWords,
} from "./cards.js";
import { totalsChart } from "./chart.js";
import { photoForUpload, uploadFailure } from "./photo.js";
import { findStacks } from "./stacks.js";
import { formatAverage, playerStats } from "./stats.js";
import { layoutTags, thingsAt, unitsPerPixel } from "./boxes.js";
import { collectionRegion, makeZoomable } from "./zoom.js";

const POLL_MS = 5000;
const GAME_ID = /^[A-Za-z0-9_-]{1,32}$/;
const SVG_NS = "http://www.w3.org/2000/svg";

const root = document.getElementById("app");
const sheet = document.getElementById("sheet");

// --- DOM helpers ---------------------------------------------------------------------

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      node.addEventListener(name.slice(2), value);
    } else if (name === "class") {
      node.setAttribute("class", value);
    } else if (value === true) {
      node.setAttribute(name, "");
    } else {
      node.setAttribute(name, String(value));
    }
  }
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// The page's screen, its parts taken as `h` takes children: a part left out (null) is
// skipped, where replaceChildren would have shown it as the word "null".
function show(...parts) {
  root.replaceChildren();
  append(root, parts);
}

function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

function listNames(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

// --- what this phone remembers: tokens and recent games -------------------------------

const memory = {
  get(key) {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key, value) {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch {
      /* private mode: the link still carries the token */
    }
  },
  token(gameId) {
    return this.get(`sushigo:token:${gameId}`);
  },
  setToken(gameId, token) {
    this.set(`sushigo:token:${gameId}`, token);
  },
  recent() {
    try {
      return JSON.parse(this.get("sushigo:recent") || "[]");
    } catch {
      return [];
    }
  },
  // A game this phone started or opened, as it last saw it: enough to list it on the
  // home page (title, players, date, the winner once finished) and to reopen it on the
  // screen it was on. Only this phone's storage holds it: no one else sees the list.
  remember(game, standings = null, route = null) {
    const previous = this.recent().find((g) => g.id === game.id);
    const complete = Boolean(standings?.complete);
    const top = complete ? standings.players.find((p) => p.name === standings.winners[0]) : null;
    const entry = {
      id: game.id,
      title: game.title,
      players: game.players.map((p) => p.name),
      created: game.created_at || previous?.created || new Date().toISOString(),
      at: new Date().toISOString(),
      status: game.status,
      rounds: game.rounds,
      played: standings ? standings.rounds_played : (previous?.played ?? 0),
      winners: complete ? standings.winners : [],
      points: top ? top.total : null,
      route: route ? { round: route.round, seat: route.seat } : (previous?.route ?? null),
    };
    const others = this.recent().filter((g) => g.id !== game.id);
    this.set("sushigo:recent", JSON.stringify([entry, ...others].slice(0, 20)));
  },
};

// --- state and routes -------------------------------------------------------------------

const app = {
  route: { game: null, round: null, seat: null },
  api: null,
  game: null,
  standings: null,
  round: null,
  collection: null,
  busy: 0,
  loading: 0, // loads in flight
  uploading: false,
  polling: false, // a poll in flight: the next tick skips rather than overlap it
  drawMode: false,
  drawing: null,
  showShare: false,
  confirmReopen: false,
  recordProblems: null,
  notice: null,
  photoCache: { id: null, svg: null },
  chosen: new Set(), // the boxes whose sheet is open: marked on the photo
  renderedData: "",
  generation: 0, // moves on with every write and load: a poll older than it is stale
};

function readRoute() {
  const query = new URLSearchParams(location.search);
  const number = (name) => {
    const value = Number.parseInt(query.get(name) || "", 10);
    return Number.isFinite(value) && value > 0 ? value : null;
  };
  const game = query.get("game");
  return {
    game: game && GAME_ID.test(game) ? game : null,
    round: number("round"),
    seat: number("seat"),
  };
}

function routeUrl(route) {
  const query = new URLSearchParams();
  if (route.game) query.set("game", route.game);
  if (route.round) query.set("round", String(route.round));
  if (route.round && route.seat) query.set("seat", String(route.seat));
  const text = query.toString();
  return text ? `/?${text}` : "/";
}

function go(route, { replace = false } = {}) {
  history[replace ? "replaceState" : "pushState"]({}, "", routeUrl(route));
  app.drawMode = false;
  app.confirmReopen = false;
  app.recordProblems = null;
  return load();
}

// An edit link carries the token in its fragment (never sent to the server): keep it on
// this phone and take it out of the address bar.
function takeTokenFromLink() {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ""));
  const token = fragment.get("edit");
  const route = readRoute();
  if (token && route.game) {
    memory.setToken(route.game, token);
    history.replaceState({}, "", routeUrl(route));
  }
}

function selectedRound(game = app.game, route = app.route) {
  if (!game) return null;
  if (route.round && route.round <= game.rounds) return route.round;
  const reopened = game.round_states.find((r) => r.status === "reopened");
  if (reopened) return reopened.number;
  return game.current_round ?? game.rounds;
}

function canEdit() {
  return Boolean(app.api?.token);
}

// --- loading ----------------------------------------------------------------------------

async function load() {
  const route = readRoute();
  app.route = route;
  if (!route.game) {
    app.api = null;
    app.game = null;
    renderHome();
    return;
  }
  if (!app.api || app.api.gameId !== app.route.game) {
    app.api = new Api(app.route.game, memory.token(app.route.game));
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
      renderHome(`There is no game with the code ${app.route.game}. Check the code or link.`);
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

async function fetchAll() {
  Object.assign(app, await fetchState());
}

function snapshot() {
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

function setOffline(offline) {
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
  Object.assign(app, state);
  if (snapshot() !== app.renderedData && !sheet.open && !app.drawing) render();
}

setInterval(poll, POLL_MS);
window.addEventListener("online", () => (app.game ? poll() : load()));
window.addEventListener("popstate", () => load());

// --- writes -------------------------------------------------------------------------------

let queue = Promise.resolve();

function setBusy(delta) {
  app.busy += delta;
  app.generation += 1;
  document.getElementById("saving").hidden = app.busy === 0;
}

// Writes run one at a time, each with the version the previous one returned, so that
// quick taps on a counter all land.
function write(action) {
  setBusy(1);
  const run = queue.then(async () => {
    try {
      await action();
    } catch (error) {
      await writeFailed(error);
    } finally {
      setBusy(-1);
    }
  });
  queue = run;
  return run;
}

async function writeFailed(error) {
  if (!(error instanceof ApiError)) {
    toast(String(error), "error");
    return;
  }
  if (error.offline) {
    setOffline(true);
    toast(error.message, "error");
    return;
  }
  if (error.status === 401 || error.status === 403) {
    toast(
      "View only: open the edit link from the phone that started the game.",
      "error",
    );
    memory.setToken(app.api.gameId, null);
    app.api.token = null;
  } else if (error.stale) {
    toast("Changed on another phone meanwhile: shown as it is now. Try again if needed.", "error");
  } else {
    toast(error.message, "error");
  }
  try {
    await fetchAll();
  } catch {
    /* the poll will try again */
  }
  render();
}

// A change to the collection on screen when it was tapped. It runs after the writes
// queued before it, with the version they left; if the phone has moved on to another
// screen meanwhile, the change still lands, on the collection it was meant for.
function collectionWrite(makeRequest) {
  const { round: number, seat } = app.collection;
  const shown = () => app.collection?.round === number && app.collection?.seat === seat;
  return write(async () => {
    const current = shown() ? app.collection : await app.api.readCollection(number, seat);
    const result = await makeRequest(app.api, current);
    if (shown()) {
      app.collection = result;
      render();
    }
    return result;
  });
}

function correct(correction) {
  return collectionWrite((api, c) =>
    api.correct(c.round, c.seat, { ...correction, version: c.version }),
  );
}

// +1 / -1 from a counter: the server adds it to the count as it stands, and the audit
// says "one more", not a bare new total.
function changeCount(key, delta) {
  return correct({ action: "adjust_count", category: key, delta });
}

function useDetectedCount(key) {
  return correct({ action: "set_counts", counts: { [key]: null } });
}

function undo() {
  return collectionWrite((api, c) => api.undo(c.round, c.seat, c.version));
}

// A hand that is not the hand size is confirmed only once the player says so, in the
// server's words ("8 of 10 cards found"), read after the writes already queued.
function confirmTally() {
  return queue.then(() => {
    const c = app.collection;
    if (!c) return null;
    if (!c.hand_note) return sendConfirm();
    openSheet(
      h("h2", {}, `${c.player}'s cards`),
      h("p", { "data-testid": "confirm-question" }, `${c.hand_note}: confirm anyway?`),
      h(
        "div",
        { class: "actions" },
        h(
          "button",
          {
            class: "button primary",
            "data-testid": "confirm-anyway",
            onclick: () => {
              closeSheet();
              sendConfirm();
            },
          },
          "Confirm anyway",
        ),
        h("button", { class: "button", "data-testid": "confirm-cancel", onclick: () => closeSheet() }, "Keep reviewing"),
      ),
    );
    return null;
  });
}

function sendConfirm() {
  const { player: name, round: number, seat } = app.collection;
  const shown = () => app.collection?.round === number && app.collection?.seat === seat;
  return write(async () => {
    const current = shown() ? app.collection : await app.api.readCollection(number, seat);
    const result = await app.api.confirm(number, seat, current.version);
    toast(`${name}'s cards are confirmed${result.hand_note ? ` (${result.hand_note})` : ""}.`, "info");
    if (shown()) {
      app.collection = result;
      await go({ game: app.game.id, round: number });
    }
  });
}

// Bring back a reading a newer photo replaced, with its corrections and confirmation.
function restoreReading(earlier) {
  return collectionWrite(async (api, c) => {
    const result = await api.restore(c.round, c.seat, earlier.photo, c.version);
    const what = earlier.photo === null ? "The cards counted by hand are" : "The earlier photo is";
    toast(`${what} back${earlier.status === "confirmed" ? ", confirmed as before" : ""}.`, "info");
    return result;
  });
}

async function roundVersion(number) {
  if (app.round?.number === number) return app.round.version;
  return (await app.api.readRound(number)).version;
}

function recordRound(acceptProblems) {
  const number = app.round.number;
  return write(async () => {
    try {
      app.round = await app.api.record(number, await roundVersion(number), acceptProblems);
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && error.body?.problems) {
        app.recordProblems = { message: error.message, problems: error.body.problems };
        render();
        return;
      }
      throw error;
    }
    app.recordProblems = null;
    const short = app.round.collections.filter((c) => c.hand_note);
    const named = short.map((c) => `${c.player}: ${c.hand_note}`).join("; ");
    toast(`Round ${number} is recorded.${named ? ` ${named}.` : ""}`, "info");
    await go({ game: app.game.id, round: number }, { replace: true });
  });
}

function reopenRound() {
  const number = app.round.number;
  return write(async () => {
    app.round = await app.api.reopen(number, await roundVersion(number));
    app.confirmReopen = false;
    toast(`Round ${number} is open for fixing. Record it again when it is right.`, "info");
    await go({ game: app.game.id, round: number }, { replace: true });
  });
}

// --- photos: upload with progress ---------------------------------------------------------

function photoInputs(number, seat, name, options = {}) {
  const { compact = false, take = "Take photo", choose = "Choose file", primary = true } = options;
  const picked = (event) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (file) pickedPhoto(number, seat, name, file);
  };
  const size = compact ? " compact" : "";
  return [
    h(
      "label",
      { class: `button photo-button${primary ? " primary" : ""}${size}` },
      h("input", {
        type: "file",
        accept: "image/*",
        capture: "environment",
        class: "visually-hidden",
        "data-testid": `camera-${seat}`,
        onchange: picked,
      }),
      cameraIcon(),
      ` ${take}`,
    ),
    h(
      "label",
      { class: `button photo-button${size}` },
      h("input", {
        type: "file",
        accept: "image/*",
        class: "visually-hidden",
        "data-testid": `file-${seat}`,
        onchange: picked,
      }),
      choose,
    ),
  ];
}

function cameraIcon() {
  return s(
    "svg",
    { viewBox: "0 0 24 24", width: 22, height: 22, "aria-hidden": "true", class: "icon" },
    s("path", {
      d: "M4 7h3l2-3h6l2 3h3a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1z",
      fill: "none",
      stroke: "currentColor",
      "stroke-width": 2,
    }),
    s("circle", { cx: 12, cy: 13, r: 4, fill: "none", stroke: "currentColor", "stroke-width": 2 }),
  );
}

// What a new photo would replace for this player, as this phone last read it: null when
// no card a person confirmed or corrected is at stake. The server checks again (a 409
// with reason "would_replace"), and the upload asks then.
function atStake(number, seat) {
  const c = app.collection;
  if (c?.round === number && c?.seat === seat) {
    return c.reviewed ? { confirmed: c.status === "confirmed", photo: Boolean(c.photo) } : null;
  }
  const summary = app.round?.number === number ? app.round.collections.find((x) => x.seat === seat) : null;
  if (!summary?.reviewed) return null;
  return { confirmed: summary.status === "confirmed", photo: summary.photo_id !== null };
}

function pickedPhoto(number, seat, name, file) {
  // An empty file is refused here: sending it would only bring the same answer back.
  if (file.size === 0) {
    failedUpload(number, seat, name, file, false, uploadFailure(null, null, file));
    return;
  }
  const stake = atStake(number, seat);
  if (stake) askReplace(number, seat, name, file, stake);
  else uploadPhoto(number, seat, name, file);
}

function askReplace(number, seat, name, file, stake) {
  const kept = stake.photo
    ? "The earlier photo is kept and can be restored."
    : "The cards counted by hand are kept and can be restored.";
  openSheet(
    h("h2", {}, `${name}'s photo`),
    h(
      "p",
      { "data-testid": "replace-question" },
      `Replace your ${stake.confirmed ? "confirmed" : "corrected"} cards? ${kept}`,
    ),
    h(
      "div",
      { class: "actions" },
      h(
        "button",
        { class: "button primary", "data-testid": "replace-yes", onclick: () => uploadPhoto(number, seat, name, file, true) },
        "Replace",
      ),
      h("button", { class: "button", "data-testid": "replace-no", onclick: () => closeSheet() }, "Keep them"),
    ),
  );
}

// A photo that could not be used: what happened, in words, and the way on. A bad file
// offers another photo; "Try again" (the same file) only where the file was not at fault.
function failedUpload(number, seat, name, file, replace, failure) {
  const another = h(
    "label",
    { class: `button photo-button${failure.retry ? "" : " primary"}`, "data-testid": "choose-another" },
    h("input", {
      type: "file",
      accept: "image/*",
      class: "visually-hidden",
      "data-testid": "choose-another-input",
      onchange: (event) => {
        const picked = event.target.files?.[0];
        event.target.value = "";
        if (!picked) return;
        closeSheet();
        pickedPhoto(number, seat, name, picked);
      },
    }),
    "Choose another photo",
  );
  openSheet(
    h("h2", {}, `${name}'s photo`),
    h("p", { class: "error", role: "alert", "data-testid": "upload-error" }, failure.message),
    h(
      "div",
      { class: "actions" },
      failure.retry
        ? h(
            "button",
            { class: "button primary", "data-testid": "upload-retry", onclick: () => uploadPhoto(number, seat, name, file, replace) },
            "Try again",
          )
        : null,
      failure.choose ? another : null,
      h("button", { class: "button", "data-testid": "upload-cancel", onclick: () => closeSheet() }, "Cancel"),
    ),
  );
}

function uploadPhoto(number, seat, name, file, replace = false) {
  app.uploading = true;
  const bar = h("progress", { max: 100, value: 0, "data-testid": "upload-progress" });
  const label = h("p", { class: "progress-label", "aria-live": "polite" }, "Preparing the photo…");
  openSheet(
    h("h2", {}, `${name}'s photo`),
    h("div", { class: "progress", "data-testid": "upload-status" }, label, bar),
    { closable: false },
  );
  const fail = (error) => {
    app.uploading = false;
    failedUpload(number, seat, name, file, replace, uploadFailure(error.status, error.body, file));
  };
  setBusy(1);
  queue = queue.then(async () => {
    let current = null;
    // Another phone confirmed or corrected these cards since this one looked: ask.
    const ask = (confirmed) => {
      app.uploading = false;
      askReplace(number, seat, name, file, { confirmed, photo: Boolean(current?.photo) });
    };
    try {
      // The version to replace is read fresh: another phone may have changed the draft.
      let photo;
      [current, photo] = await Promise.all([app.api.readCollection(number, seat), photoForUpload(file)]);
      if (current.reviewed && !replace) {
        ask(current.status === "confirmed");
        return;
      }
      const progress = (part) => {
        if (part === null) {
          bar.removeAttribute("value");
          label.textContent = "Finding the cards…";
        } else {
          bar.value = Math.round(part * 100);
          label.textContent = `Uploading… ${Math.round(part * 100)} %`;
        }
      };
      const result = await app.api.uploadPhoto(number, seat, photo, current.version, progress, replace);
      app.uploading = false;
      closeSheet();
      app.collection = result;
      const route = { game: app.game.id, round: number, seat };
      if (app.route.seat === seat && app.route.round === number) {
        render();
      } else {
        await go(route);
      }
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        app.uploading = false;
        closeSheet();
        await writeFailed(error);
      } else if (error instanceof ApiError && error.status === 409 && error.body?.reason === "would_replace") {
        ask(Boolean(error.body.confirmed));
      } else {
        fail(error instanceof ApiError ? error : new ApiError(500, String(error)));
      }
    } finally {
      setBusy(-1);
    }
  });
}

// --- the sheet (a modal dialog) and toasts -------------------------------------------------

function openSheet(...children) {
  let options = {};
  const last = children.at(-1);
  if (last && typeof last === "object" && !(last instanceof Node) && !Array.isArray(last)) {
    options = children.pop();
  }
  sheet.replaceChildren();
  append(sheet, children);
  sheet.dataset.closable = options.closable === false ? "no" : "yes";
  sheet.classList.toggle("over-photo", Boolean(options.room));
  sheet.style.maxHeight = options.room ? `${Math.floor(options.room)}px` : "";
  if (!sheet.open) sheet.showModal();
}

function closeSheet() {
  if (sheet.open) sheet.close();
  sheet.replaceChildren();
}

sheet.addEventListener("cancel", (event) => {
  if (sheet.dataset.closable === "no") event.preventDefault();
});
sheet.addEventListener("click", (event) => {
  if (event.target === sheet && sheet.dataset.closable !== "no") closeSheet();
});
sheet.addEventListener("close", () => {
  // The event comes after the dialog closed: a sheet opened since keeps its marks.
  if (!sheet.open) {
    app.chosen = new Set();
    for (const node of document.querySelectorAll("g.box.chosen")) node.classList.remove("chosen");
    sheet.classList.remove("over-photo");
    sheet.style.maxHeight = "";
  }
  if (app.drawing) {
    app.drawing = null;
    app.photoCache.svg?.querySelector("g.drawing")?.replaceChildren();
  }
});

// A notification lies over the top bar, where the page has no control but the home link,
// and lets every tap through (pointer-events: none): it once sat over "Fix this round"
// and caught the taps meant for it. Only the newest shows; each goes by itself.
const TOAST_MS = { info: 4000, error: 8000 };

function toast(message, kind = "info") {
  const box = document.getElementById("toasts");
  // The server's words come lowercase and name cards by key: a sentence, in words.
  const item = h(
    "div",
    { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" },
    h("span", { class: "toast-text" }, inWords(message)),
  );
  box.replaceChildren(item);
  setTimeout(() => item.remove(), TOAST_MS[kind] ?? TOAST_MS.info);
}

// --- home: start or join a game -------------------------------------------------------------

function renderHome(message) {
  document.title = "Sushi Go! scorer";
  const names = h("div", { class: "names" });
  const rounds = h("select", { name: "rounds", id: "rounds", "data-testid": "rounds" });
  const addButton = h("button", { type: "button", class: "button", onclick: () => addName() }, "+ Add a player");

  const refresh = () => {
    const inputs = names.querySelectorAll("input");
    addButton.hidden = inputs.length >= 5;
    names.querySelectorAll(".remove").forEach((b) => (b.hidden = inputs.length <= 2));
    const players = inputs.length;
    const chosen = Number(rounds.value || 3);
    rounds.replaceChildren(
      ...[3, 4, 5]
        .filter((n) => n <= MAX_ROUNDS[players])
        .map((n) =>
          h("option", { value: n, selected: n === chosen }, n === 3 ? "3 (standard)" : `${n} (variant)`),
        ),
    );
    hand.textContent = `${players} players: ${HAND_SIZE[players]} cards each per round.`;
  };
  const addName = (value = "") => {
    const index = names.children.length + 1;
    const row = h(
      "div",
      { class: "name-row" },
      h("input", {
        type: "text",
        name: "player",
        value,
        required: true,
        maxlength: 40,
        autocomplete: "off",
        "aria-label": `Player ${index}`,
        placeholder: `Player ${index}`,
        "data-testid": `player-name-${index}`,
      }),
      h(
        "button",
        {
          type: "button",
          class: "button remove",
          "aria-label": `Remove player ${index}`,
          onclick: () => {
            row.remove();
            refresh();
          },
        },
        "×",
      ),
    );
    names.append(row);
    refresh();
    return row;
  };
  const hand = h("p", { class: "hint" });
  const error = h("p", { class: "error", role: "alert", hidden: !message }, message || "");

  const start = async (event) => {
    event.preventDefault();
    const players = [...names.querySelectorAll("input")].map((i) => i.value.trim());
    if (players.some((p) => !p)) {
      error.textContent = "Give every player a name (or remove the empty row).";
      error.hidden = false;
      return;
    }
    if (new Set(players.map((p) => p.toLowerCase())).size !== players.length) {
      error.textContent = "Two players have the same name: make them different.";
      error.hidden = false;
      return;
    }
    const button = event.target.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const title = event.target.title.value.trim() || null;
      const game = await Api.createGame({ players, rounds: Number(rounds.value), title });
      memory.setToken(game.id, game.edit_token);
      memory.remember(game);
      app.showShare = true;
      await go({ game: game.id });
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
      button.disabled = false;
    }
  };

  const join = (event) => {
    event.preventDefault();
    const text = event.target.code.value.trim();
    let id = text;
    let token = null;
    try {
      const url = new URL(text);
      id = url.searchParams.get("game") || "";
      token = new URLSearchParams(url.hash.replace(/^#/, "")).get("edit");
    } catch {
      /* a bare code */
    }
    if (!GAME_ID.test(id)) {
      joinError.textContent = "That is not a game code or link.";
      joinError.hidden = false;
      return;
    }
    if (token) memory.setToken(id, token);
    go({ game: id });
  };
  const joinError = h("p", { class: "error", role: "alert", hidden: true });

  const recent = memory.recent();
  show(
    h(
      "section",
      { class: "panel intro" },
      h("h1", {}, "Score Sushi Go! from photos"),
      h(
        "p",
        {},
        "After each round, photograph each player's cards. The page finds the cards, lets you fix anything it got wrong, and keeps the score, pudding included.",
      ),
    ),
    // A phone that has games goes back to one more often than it starts one.
    recent.length ? recentGames(recent) : null,
    recent.length ? playerStatsPanel(recent) : null,
    h(
      "form",
      { class: "panel", onsubmit: start, "data-testid": "new-game" },
      h("h2", {}, "New game"),
      h("fieldset", {}, h("legend", {}, "Players, in seat order"), names, addButton, hand),
      h("label", { for: "rounds", class: "field" }, "Rounds", rounds),
      h(
        "label",
        { class: "field" },
        "Name of the game (optional)",
        h("input", { type: "text", name: "title", maxlength: 120, placeholder: "Friday night" }),
      ),
      error,
      h("button", { type: "submit", class: "button primary wide", "data-testid": "start-game" }, "Start game"),
    ),
    h(
      "form",
      { class: "panel", onsubmit: join },
      h("h2", {}, "Join a game"),
      h(
        "label",
        { class: "field" },
        "Game code or link",
        h("input", { type: "text", name: "code", autocomplete: "off", required: true }),
      ),
      joinError,
      h("button", { type: "submit", class: "button wide" }, "Open the game"),
    ),
  );
  addName();
  addName();
}

// The games this phone started or opened, newest first, each a link back to where it was.
function recentGames(recent) {
  const day = (iso) => new Date(iso).toLocaleDateString([], { day: "numeric", month: "short", year: "numeric" });
  const state = (g) => {
    if (g.winners?.length) {
      const points = g.points === null ? "" : ` with ${plural(g.points, "point")}`;
      return g.winners.length === 1 ? `${g.winners[0]} won${points}` : `${listNames(g.winners)} shared the win${points}`;
    }
    if (g.status === "fixing") return "A round is being fixed";
    if (g.status === "finished") return "Finished";
    return g.played ? `${plural(g.played, "round")} of ${g.rounds} played` : "Not started";
  };
  return h(
    "section",
    { class: "panel", "data-testid": "recent-games" },
    h("h2", {}, "Games on this phone"),
    h(
      "ul",
      { class: "recent" },
      recent.map((g) =>
        h(
          "li",
          {},
          h(
            "a",
            { href: routeUrl({ game: g.id, ...(g.route || {}) }), class: "recent-game", "data-testid": `recent-${g.id}` },
            h("strong", { class: "recent-title" }, g.title || listNames(g.players)),
            g.title ? h("span", { class: "recent-players" }, listNames(g.players)) : null,
            h(
              "span",
              { class: "recent-state" },
              h("span", { class: g.winners?.length ? "recent-winner" : "" }, state(g)),
              ` · ${day(g.created || g.at)}`,
            ),
          ),
        ),
      ),
    ),
  );
}

// Who played more than one of the finished games listed above: games, wins, average and
// best total. Each listed game's standings come from the server (a game may have been
// finished on another phone since this one saw it); a game not listed here never counts.
// The panel stays hidden until some name has played two finished games.
function playerStatsPanel(recent) {
  const body = h("tbody");
  const caption = h("p", { class: "hint" });
  const panel = h(
    "section",
    { class: "panel", "data-testid": "player-stats", hidden: true },
    h("h2", {}, "Players across these games"),
    caption,
    h(
      "div",
      { class: "table-scroll" },
      h(
        "table",
        { class: "scores stats-table" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, "Player"),
            h("th", { scope: "col" }, "Games"),
            h("th", { scope: "col" }, "Wins"),
            h("th", { scope: "col" }, "Average"),
            h("th", { scope: "col" }, "Best"),
          ),
        ),
        body,
      ),
    ),
  );
  app.loading += 1;
  Promise.all(recent.map((g) => new Api(g.id).readStandings().catch(() => null)))
    .then((all) => {
      const finished = all.filter((st) => st?.complete);
      const rows = playerStats(finished);
      if (!rows.length) return;
      const missing = all.filter((st) => st === null).length;
      caption.textContent =
        `From the ${plural(finished.length, "finished game")} on this phone, for names that played more than one` +
        (missing ? ` (${plural(missing, "game")} could not be read just now).` : ".");
      body.replaceChildren(
        ...rows.map((row, i) =>
          h(
            "tr",
            { "data-testid": `stat-${i + 1}` },
            h("th", { scope: "row", "data-col": "name" }, row.name),
            h("td", { "data-col": "games" }, row.games),
            h("td", { "data-col": "wins" }, row.wins),
            h("td", { "data-col": "average" }, formatAverage(row.average)),
            h("td", { "data-col": "best", class: "total" }, row.best),
          ),
        ),
      );
      panel.hidden = false;
    })
    .finally(() => {
      app.loading -= 1;
    });
  return panel;
}

// --- the game ---------------------------------------------------------------------------------

function render() {
  if (!app.game) return;
  app.renderedData = snapshot();
  const game = app.game;
  document.title = `${game.title || "Sushi Go!"} · scorer`;
  show(...(app.route.seat && app.collection ? reviewScreen() : gameScreen()));
}

function gameHeader() {
  const game = app.game;
  const names = game.players.map((p) => p.name);
  return h(
    "section",
    { class: "game-head" },
    h(
      "div",
      {},
      h("h1", {}, game.title || listNames(names)),
      h(
        "p",
        { class: "hint" },
        `${plural(game.rounds, "round")} · ${HAND_SIZE[names.length]} cards per hand · code `,
        h("strong", { class: "code", "data-testid": "game-code" }, game.id),
        canEdit() ? null : h("span", { class: "chip muted", "data-testid": "view-only" }, "view only"),
      ),
    ),
    h(
      "button",
      {
        class: "button",
        "aria-expanded": String(app.showShare),
        "data-testid": "share",
        onclick: () => {
          app.showShare = !app.showShare;
          render();
        },
      },
      "Share",
    ),
  );
}

function sharePanel() {
  const game = app.game;
  const base = `${location.origin}${routeUrl({ game: game.id })}`;
  const copy = async (text, button) => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch {
      button.previousSibling?.select?.();
      button.textContent = "Select and copy";
    }
  };
  const linkRow = (label, text, testid) => {
    const field = h("input", { type: "text", readonly: true, value: text, "data-testid": testid });
    const button = h("button", { class: "button", type: "button" }, "Copy");
    button.addEventListener("click", () => copy(text, button));
    field.addEventListener("focus", () => field.select());
    return h("label", { class: "field" }, label, h("div", { class: "copy-row" }, field, button));
  };
  return h(
    "section",
    { class: "panel share", "data-testid": "share-panel" },
    h("h2", {}, "Share this game"),
    h("p", {}, "Game code: ", h("strong", { class: "code big" }, game.id)),
    canEdit()
      ? linkRow(
          "Edit link: anyone with it can take photos and change scores",
          `${base}#edit=${encodeURIComponent(app.api.token)}`,
          "edit-link",
        )
      : h("p", { class: "hint" }, "This phone can only follow the game. To change it, open the edit link from the phone that started it."),
    linkRow("View link: follows the scores, changes nothing", base, "view-link"),
    navigator.share && canEdit()
      ? h(
          "button",
          {
            class: "button",
            onclick: () =>
              navigator
                .share({ title: "Sushi Go! game", url: `${base}#edit=${encodeURIComponent(app.api.token)}` })
                .catch(() => {}),
          },
          "Send the edit link…",
        )
      : null,
  );
}

function roundTabs(selected) {
  const game = app.game;
  return h(
    "nav",
    { class: "tabs", "aria-label": "Rounds" },
    game.round_states.map((r) =>
      h(
        "button",
        {
          class: `tab ${r.status}`,
          "aria-current": r.number === selected ? "page" : null,
          "data-testid": `round-tab-${r.number}`,
          onclick: () => go({ game: game.id, round: r.number }),
        },
        `Round ${r.number}`,
        h(
          "small",
          {},
          r.status === "recorded" ? "recorded" : r.status === "reopened" ? "fixing" : r.number === game.current_round ? "now" : "later",
        ),
      ),
    ),
  );
}

function gameScreen() {
  const game = app.game;
  const round = app.round;
  const parts = [gameHeader()];
  if (app.showShare) parts.push(sharePanel());
  parts.push(roundTabs(round.number));
  const finished = game.status === "finished" && !app.route.round;
  if (finished) parts.push(standingsPanel(), roundPanel(round));
  else parts.push(roundPanel(round), standingsPanel());
  return parts;
}

function statusText(summary, hand) {
  if (summary.status === "empty") return "No photo yet";
  const cards = `${summary.cards} of ${hand} cards`;
  return summary.status === "confirmed" ? `Confirmed · ${cards}` : `To review · ${cards}`;
}

function roundPanel(round) {
  const game = app.game;
  const hand = game.hand_size;
  const edit = canEdit();
  const panel = h("section", { class: "panel round", "data-testid": "round-panel" });
  const title = h("h2", {}, `Round ${round.number} of ${game.rounds}`);
  panel.append(title);

  if (round.status === "reopened") {
    panel.append(
      h(
        "p",
        { class: "banner warn" },
        `Round ${round.number} is open for fixing. Its last record keeps counting until you record it again.`,
      ),
    );
  }

  if (!round.accepts_entries && round.status === "open") {
    const first = game.round_states.find((r) => r.status === "open");
    panel.append(
      h("p", { class: "hint" }, `This round starts once round ${first ? first.number : round.number - 1} is recorded.`),
    );
    return panel;
  }

  if (round.status === "recorded" && round.record) {
    panel.append(roundScores(round));
    if (edit) {
      if (app.confirmReopen) {
        panel.append(
          h(
            "div",
            { class: "confirm-box" },
            h("p", {}, `Re-open round ${round.number} to fix it? Its scores keep counting until you record it again.`),
            h(
              "div",
              { class: "actions" },
              h("button", { class: "button primary", "data-testid": "reopen-yes", onclick: () => reopenRound() }, "Re-open"),
              h(
                "button",
                {
                  class: "button",
                  onclick: () => {
                    app.confirmReopen = false;
                    render();
                  },
                },
                "Cancel",
              ),
            ),
          ),
        );
      } else {
        panel.append(
          h(
            "button",
            {
              class: "button",
              "data-testid": "reopen",
              onclick: () => {
                app.confirmReopen = true;
                render();
              },
            },
            "Fix this round",
          ),
        );
      }
    }
    const next = game.round_states.find((r) => r.number === round.number + 1);
    if (next && next.status !== "recorded" && game.current_round === next.number) {
      panel.append(
        h(
          "button",
          { class: "button primary wide", "data-testid": "next-round", onclick: () => go({ game: game.id, round: next.number }) },
          `Go to round ${next.number}`,
        ),
      );
    }
    return panel;
  }

  // The round takes entries: one row per player.
  const list = h("ul", { class: "players" });
  for (const summary of round.collections) {
    const colour = SEAT_COLOURS[(summary.seat - 1) % SEAT_COLOURS.length];
    const review = () => go({ game: game.id, round: round.number, seat: summary.seat });
    list.append(
      h(
        "li",
        { class: `player ${summary.status}`, "data-testid": `player-${summary.seat}` },
        h(
          "div",
          { class: "who" },
          h("span", { class: "dot", style: `background:${colour}` }),
          h("strong", {}, summary.player),
          h(
            "span",
            {
              class: `chip ${summary.status === "confirmed" ? "ok" : summary.status === "draft" ? "warn" : "muted"}`,
              "data-testid": `player-status-${summary.seat}`,
            },
            statusText(summary, hand),
          ),
        ),
        h(
          "div",
          { class: "actions" },
          edit ? photoInputs(round.number, summary.seat, summary.player, { compact: true }) : null,
          summary.status === "empty"
            ? edit
              ? h("button", { class: "button compact", onclick: review }, "Count by hand")
              : null
            : h(
                "button",
                { class: "button compact", "data-testid": `review-${summary.seat}`, onclick: review },
                summary.status === "confirmed" ? "See cards" : "Review",
              ),
        ),
      ),
    );
  }
  panel.append(list);

  const confirmed = round.collections.filter((c) => c.status === "confirmed").length;
  const all = round.collections.length;
  if (round.problems.length && confirmed === all) panel.append(problemList(round.problems));
  if (app.recordProblems) {
    panel.append(
      h(
        "div",
        { class: "banner error", role: "alert", "data-testid": "record-problems" },
        h("p", {}, "This round does not add up:"),
        problemList(app.recordProblems.problems),
        h(
          "p",
          {},
          "Fix the cards, or record it as it is if the photos are right (a misdeal, a house rule).",
        ),
        h(
          "button",
          { class: "button danger", "data-testid": "record-anyway", onclick: () => recordRound(true) },
          "Record anyway",
        ),
      ),
    );
  }
  if (edit) {
    panel.append(
      h(
        "button",
        {
          class: "button primary wide",
          disabled: confirmed < all,
          "data-testid": "record-round",
          onclick: () => recordRound(false),
        },
        confirmed < all
          ? `Record round ${round.number} (${confirmed} of ${all} confirmed)`
          : round.status === "reopened"
            ? `Record round ${round.number} again`
            : `Record round ${round.number}`,
      ),
    );
  }
  return panel;
}

function problemList(problems) {
  return h(
    "ul",
    { class: "problems" },
    problems.map((p) => h("li", { class: p.severity }, inWords(p.message))),
  );
}

function roundScores(round) {
  const game = app.game;
  const scores = round.record.scores;
  const table = h(
    "table",
    { class: "scores", "data-testid": "round-scores" },
    h(
      "thead",
      {},
      h("tr", {}, h("th", { scope: "col" }, "Points"), game.players.map((p) => h("th", { scope: "col" }, p.name))),
    ),
    h(
      "tbody",
      {},
      BREAKDOWN.map((line) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, line.name),
          scores.map((score) => h("td", {}, score.breakdown[line.key])),
        ),
      ),
      h(
        "tr",
        { class: "total" },
        h("th", { scope: "row" }, "Round total"),
        scores.map((score, i) => h("td", { "data-testid": `round-total-${i + 1}` }, score.total)),
      ),
      h(
        "tr",
        {},
        h("th", { scope: "row" }, "Puddings kept"),
        round.record.tallies.map((t) => h("td", {}, t.pudding)),
      ),
    ),
  );
  const tallies = h(
    "details",
    { class: "tallies" },
    h("summary", {}, "Cards counted"),
    h(
      "table",
      { class: "scores" },
      h("thead", {}, h("tr", {}, h("th", {}, "Cards"), game.players.map((p) => h("th", {}, p.name)))),
      h(
        "tbody",
        {},
        CATEGORIES.map((c) =>
          h("tr", {}, h("th", { scope: "row" }, c.name), round.record.tallies.map((t) => h("td", {}, t[c.key]))),
        ),
      ),
    ),
    h(
      "div",
      { class: "actions" },
      round.collections.map((c) =>
        h(
          "button",
          {
            class: "button compact",
            "data-testid": `recorded-photo-${c.seat}`,
            onclick: () => go({ game: game.id, round: round.number, seat: c.seat }),
          },
          `${c.player}'s photo`,
        ),
      ),
    ),
  );
  return h(
    "div",
    {},
    round.record.accepted
      ? h("p", { class: "banner warn" }, "Recorded although the cards did not add up (accepted by hand).")
      : null,
    h("div", { class: "table-scroll" }, table),
    tallies,
  );
}

function standingsPanel() {
  const game = app.game;
  const st = app.standings;
  const panel = h("section", { class: "panel standings", "data-testid": "standings" });
  panel.append(
    h(
      "h2",
      {},
      st.complete ? "Final results" : st.rounds_played ? `Standings after round ${st.rounds_played}` : "Standings",
    ),
  );
  if (st.complete && st.winners.length) {
    const top = st.players.find((p) => p.name === st.winners[0]);
    panel.append(
      h(
        "p",
        { class: "winner", "data-testid": "winner" },
        st.winners.length === 1
          ? `${st.winners[0]} wins with ${plural(top.total, "point")}!`
          : `${listNames(st.winners)} share the win with ${plural(top.total, "point")}!`,
      ),
    );
    const best = Math.max(...st.players.map((p) => p.total));
    if (st.players.filter((p) => p.total === best).length > st.winners.length) {
      panel.append(h("p", { class: "hint" }, "Tied on points: the most puddings breaks the tie."));
    }
  } else if (!st.rounds_played) {
    panel.append(h("p", { class: "hint" }, "Scores appear here once round 1 is recorded."));
    return panel;
  } else if (st.leaders.length) {
    panel.append(h("p", { class: "hint" }, `Leading: ${listNames(st.leaders)}. Pudding is scored after the last round.`));
  }
  if (st.reopened.length) {
    panel.append(
      h("p", { class: "banner warn" }, `Round ${st.reopened.join(", ")} is being fixed: the scores use its last record.`),
    );
  }
  const roundHeads = [];
  for (let r = 1; r <= game.rounds; r += 1) {
    roundHeads.push(
      h(
        "th",
        { scope: "col" },
        r <= st.rounds_played
          ? h("button", { class: "link", onclick: () => go({ game: game.id, round: r }), title: `Open round ${r}` }, `R${r}`)
          : `R${r}`,
      ),
    );
  }
  const table = h(
    "table",
    { class: "scores standings-table", "data-testid": "standings-table" },
    h(
      "thead",
      {},
      h("tr", {}, h("th", { scope: "col" }, "Player"), roundHeads, h("th", { scope: "col" }, "Pudding"), h("th", { scope: "col" }, "Total")),
    ),
    h(
      "tbody",
      {},
      st.players.map((p, i) => {
        const cells = [];
        for (let r = 0; r < game.rounds; r += 1) {
          cells.push(h("td", { "data-col": `r${r + 1}` }, r < p.rounds.length ? p.rounds[r] : "–"));
        }
        const dessert = st.complete
          ? `${p.dessert > 0 ? "+" : ""}${p.dessert} (${p.puddings})`
          : `(${p.puddings})`;
        return h(
          "tr",
          { class: st.winners.includes(p.name) ? "win" : "", "data-testid": `standing-${i + 1}` },
          h(
            "th",
            { scope: "row" },
            h("span", { class: "dot", style: `background:${SEAT_COLOURS[i % SEAT_COLOURS.length]}` }),
            p.name,
          ),
          cells,
          h("td", { "data-col": "dessert", "data-points": p.dessert, "data-puddings": p.puddings }, dessert),
          h("td", { "data-col": "total", class: "total" }, p.total),
        );
      }),
    ),
  );
  panel.append(
    h("div", { class: "table-scroll" }, table),
    h(
      "p",
      { class: "hint" },
      st.complete
        ? "Pudding: points (puddings kept). Most puddings +6, fewest −6 (not with 2 players); ties split."
        : "Pudding: puddings kept so far; scored after the last round.",
    ),
    // The score sheet for a spreadsheet: rounds, dessert, totals (the view link reads it).
    h(
      "p",
      { class: "sheet-row" },
      h(
        "a",
        {
          class: "button",
          href: `/api/v1/games/${encodeURIComponent(game.id)}/sheet.csv`,
          download: true,
          "data-testid": "sheet-link",
        },
        "Score sheet (CSV)",
      ),
    ),
  );
  const chart = totalsChart(st);
  if (chart) {
    panel.append(
      h(
        "figure",
        { class: "chart-box" },
        chart,
        h(
          "figcaption",
          { class: "legend" },
          st.players.map((p, i) =>
            h("span", {}, h("span", { class: "dot", style: `background:${SEAT_COLOURS[i % SEAT_COLOURS.length]}` }), `${p.name} ${p.total}`),
          ),
        ),
      ),
    );
  }
  return panel;
}

// --- review: the photo, its boxes and the counters ---------------------------------------------

function reviewScreen() {
  const c = app.collection;
  const game = app.game;
  const editable = canEdit() && c.round_status !== "recorded";
  const back = h(
    "button",
    { class: "button back", "data-testid": "back", onclick: () => go({ game: game.id, round: c.round }) },
    `← Round ${c.round}`,
  );
  const head = h(
    "section",
    { class: "review-head" },
    back,
    h("h1", {}, `${c.player}'s cards`, h("small", {}, ` · round ${c.round}`)),
  );
  const status = h(
    "p",
    { class: `chip ${c.status === "confirmed" ? "ok" : c.status === "draft" ? "warn" : "muted"}`, "data-testid": "review-status" },
    c.status === "confirmed" ? "Confirmed" : c.status === "draft" ? "Not confirmed yet" : "Nothing entered yet",
  );
  const notes = [];
  if (!canEdit()) notes.push(h("p", { class: "banner" }, "View only: open the edit link to change these cards."));
  else if (c.round_status === "recorded") {
    notes.push(h("p", { class: "banner" }, `Round ${c.round} is recorded. To change it, go back and tap “Fix this round”.`));
  }

  const photoSide = h("div", { class: "photo-side" }, c.photo ? photoPanel(c, editable) : noPhoto(c, editable));
  const tallySide = h("div", { class: "tally-side" }, warningsList(c), counters(c, editable));
  const bar = editable ? confirmBar(c) : null;
  return [
    head,
    h("div", { class: "review-status" }, status, handCheck(c)),
    ...notes,
    h("div", { class: "review" }, photoSide, tallySide),
    earlierList(c, editable),
    bar,
  ];
}

// The readings newer photos replaced, kept as they were: each can be brought back.
function earlierList(c, editable) {
  if (!c.earlier?.length) return null;
  const at = (iso) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return h(
    "section",
    { class: "earlier", "data-testid": "earlier" },
    h("h2", {}, c.earlier.length === 1 ? "Earlier photo" : "Earlier photos"),
    h("p", { class: "hint" }, "Kept as they were when a newer photo replaced them. Restore brings one back, corrections and all."),
    h(
      "ul",
      { class: "earlier-list" },
      c.earlier.map((e) => {
        const key = e.photo ?? "counts";
        const thumb = e.image_url
          ? h("img", { src: e.image_url, alt: `An earlier photo of ${c.player}'s cards`, loading: "lazy", class: "thumb" })
          : h("span", { class: "thumb counted" }, "Counted by hand");
        // A photo the browser cannot show (HEIC outside Safari): the server's JPEG.
        if (e.annotated_url) thumb.addEventListener("error", () => (thumb.src = e.annotated_url), { once: true });
        return h(
          "li",
          { class: "earlier-item", "data-testid": `earlier-${key}` },
          thumb,
          h(
            "div",
            { class: "earlier-text" },
            h("strong", {}, e.status === "confirmed" ? "Confirmed" : "Not confirmed"),
            ` · ${e.cards} of ${c.hand_size} cards`,
            e.corrections ? ` · ${plural(e.corrections, "correction")}` : "",
            h("small", {}, `Replaced at ${at(e.replaced_at)}`),
          ),
          editable
            ? h("button", { class: "button compact", "data-testid": `restore-${key}`, onclick: () => restoreReading(e) }, "Restore")
            : null,
        );
      }),
    ),
  );
}

function handCheck(c) {
  const ok = c.cards === c.hand_size;
  return h(
    "p",
    { class: `hand-check ${ok ? "ok" : "bad"}`, "data-testid": "hand-check", role: "status" },
    ok ? "✓ " : "! ",
    `${c.hand_size} cards expected, ${c.cards} found`,
    ok ? "" : c.cards < c.hand_size ? ": a card may be missing" : ": a card may be counted twice",
  );
}

function warningsList(c) {
  const messages = [
    ...c.warnings.map((text) => ({ severity: "warning", message: text })),
    ...c.problems.filter((p) => p.code !== "too_few_cards" && p.code !== "too_many_cards"),
  ];
  if (!messages.length) return null;
  return h(
    "ul",
    { class: "problems", "data-testid": "warnings" },
    messages.map((p) => h("li", { class: p.severity }, inWords(p.message))),
  );
}

function noPhoto(c, editable) {
  return h(
    "div",
    { class: "no-photo" },
    h("p", {}, "No photo for this player yet."),
    editable ? h("div", { class: "actions" }, photoInputs(c.round, c.seat, c.player)) : null,
    editable ? h("p", { class: "hint" }, "Or count the cards with the + and − buttons.") : null,
  );
}

function photoPanel(c, editable) {
  const svg = photoSvg(c, editable);
  const figure = h("figure", { class: "photo" }, svg);
  const zoom = (act) => () => act(svg.zoom);
  const zoomTools = h(
    "div",
    { class: "zoom-tools", role: "group", "aria-label": "Zoom the photo" },
    h("button", { class: "button step-zoom", "aria-label": "Zoom out", "data-testid": "zoom-out", onclick: zoom((z) => z.zoomBy(1 / 1.6)) }, "−"),
    h("button", { class: "button step-zoom", "aria-label": "Zoom in", "data-testid": "zoom-in", onclick: zoom((z) => z.zoomBy(1.6)) }, "+"),
    h("button", { class: "button compact", "aria-label": "Zoom to the cards", "data-testid": "zoom-cards", onclick: zoom((z) => z.collection()) }, "Cards"),
    h("button", { class: "button compact", "data-testid": "zoom-whole", onclick: zoom((z) => z.whole()) }, "Whole photo"),
  );
  const tools = editable
    ? h(
        "div",
        { class: "actions tools" },
        h(
          "button",
          {
            class: `button${app.drawMode ? " primary" : ""}`,
            "aria-pressed": String(app.drawMode),
            "data-testid": "add-box",
            onclick: () => {
              app.drawMode = !app.drawMode;
              render();
            },
          },
          app.drawMode ? "Drag over the missed card…" : "+ Add a missed card",
        ),
        h("button", { class: "button", disabled: !c.can_undo, "data-testid": "undo", onclick: () => undo() }, "Undo"),
        photoInputs(c.round, c.seat, c.player, {
          compact: true,
          take: "New photo",
          choose: "Other file",
          primary: false,
        }),
      )
    : null;
  const hint = editable
    ? h(
        "p",
        { class: "hint" },
        app.drawMode
          ? "Drag a box over a card the detector missed, then say what it is."
          : "Tap a box to change its card or delete it.",
      )
    : null;
  return [figure, zoomTools, hint, tools, boxList(c, editable)];
}

function photoSvg(c, editable) {
  const { width, height, id } = c.photo;
  let svg = app.photoCache.id === id ? app.photoCache.svg : null;
  if (!svg) {
    svg = s("svg", {
      viewBox: `0 0 ${width} ${height}`,
      class: "photo-svg",
      style: `aspect-ratio: ${width} / ${height}`,
      "data-testid": "photo",
      role: "group",
      "aria-label": "The photo with the cards found",
    });
    const image = s("image", { href: c.photo.image_url, x: 0, y: 0, width, height, preserveAspectRatio: "none" });
    // A photo the browser cannot show (HEIC outside Safari): the server's JPEG instead.
    image.addEventListener("error", () => image.setAttribute("href", c.photo.annotated_url), { once: true });
    svg.append(image, s("g", { class: "boxes" }), s("g", { class: "drawing" }));
    app.photoCache = { id, svg };
    svg.addEventListener("pointerdown", (event) => startDrawing(event, svg));
    svg.addEventListener("pointermove", (event) => moveDrawing(event, svg));
    svg.addEventListener("pointerup", (event) => endDrawing(event, svg));
    svg.addEventListener("pointercancel", () => cancelDrawing(svg));
    svg.addEventListener("click", (event) => tapPhoto(event, svg));
    svg.photoSize = { width, height };
    svg.zoom = makeZoomable(svg, {
      width,
      height,
      opening: collectionRegion(c.detections),
      changed: () => layoutTags(svg),
      canPan: () => !app.drawMode,
    });
    // Tags are laid out in CSS px: again whenever the photo's size on screen changes.
    new ResizeObserver(() => layoutTags(svg)).observe(svg);
  }
  svg.classList.toggle("drawing-mode", Boolean(editable && app.drawMode));
  const unit = Math.max(width, height) / 100; // a hundredth of the photo's long side
  const group = svg.querySelector("g.boxes");
  const { partOf } = findStacks(c.detections);
  // What a tap can mean: each box, a stack with its wasabi strip as one.
  const things = c.detections
    .filter((box) => partOf.get(box.id)?.strip !== box)
    .map((box) => {
      const stack = partOf.get(box.id) || null;
      const strip = stack?.strip?.box;
      const xyxy = strip
        ? [Math.min(box.box[0], strip[0]), Math.min(box.box[1], strip[1]), Math.max(box.box[2], strip[2]), Math.max(box.box[3], strip[3])]
        : box.box;
      return { box, stack, xyxy, label: stack ? stack.label : box.label };
    });
  svg.things = editable ? things : [];
  const boxes = [...c.detections].sort((a, b) => area(b.box) - area(a.box)); // small on top
  group.replaceChildren(
    ...boxes.map((box) => {
      const [x1, y1, x2, y2] = box.box;
      const stack = partOf.get(box.id) || null;
      // A stack's wasabi strip is drawn as part of its stack: its colour, no tag.
      const strip = stack?.strip === box;
      const label = stack ? stack.label : box.label;
      const colour = BY_KEY[label]?.colour || "#fff";
      const name = boxName(label);
      const what = strip
        ? `The wasabi under the ${boxName(label)}`
        : stack
          ? `${boxName(label)} (one box, two cards)`
          : `${boxName(box.label)}${box.counted === false ? " (not counted)" : ""}`;
      const thing = things.find((x) => x.box === box);
      const node = s(
        "g",
        {
          class: `box ${box.source}${box.detected_label ? " relabeled" : ""}${box.counted === false && !stack ? " uncounted" : ""}${strip ? " strip" : ""}${app.chosen.has(box.id) ? " chosen" : ""}`,
          "data-box-id": box.id,
          "data-label": box.label,
          "data-stack": stack ? stack.label : null,
          "data-xyxy": thing ? JSON.stringify(thing.xyxy) : null,
          "data-names": strip ? null : JSON.stringify(tagNames(label)),
          tabindex: editable ? 0 : null,
          role: editable ? "button" : null,
          "aria-label": `${what}${editable ? ": change or delete" : ""}`,
        },
        s("rect", {
          x: x1,
          y: y1,
          width: x2 - x1,
          height: y2 - y1,
          class: "frame",
          stroke: colour,
          "stroke-width": Math.max(unit * 0.45, 2),
        }),
        strip
          ? null
          : s("g", { class: "tag" }, s("rect", { fill: colour }), s("text", { class: "tag-text" }, name)),
      );
      if (editable) {
        node.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            openBoxSheet(stack ? stack.top : box, stack);
          }
        });
      }
      return node;
    }),
  );
  requestAnimationFrame(() => layoutTags(svg));
  return svg;
}

// A tag's names, longest first: the card's, then where that one is crowded out, its
// first word, where that still says the card ("Chopsticks", not "Maki" for "Maki 2" nor
// "Salmon" for a salmon on its wasabi).
function tagNames(label) {
  const name = boxName(label);
  const first = name.split(" ")[0];
  const clear = !label.startsWith("maki_") && !label.endsWith("_on_wasabi") && first !== name;
  return clear ? [name, first] : [name];
}

// A tap on the photo: the box under the finger, or where the boxes within a finger's
// reach overlap (a stack, a column), a question naming them, largest first.
function tapPhoto(event, svg) {
  if (svg.dataset.panned) {
    delete svg.dataset.panned; // the finger panned or pinched: no tap
    return;
  }
  if (app.drawMode || app.drawing) return;
  const px = unitsPerPixel(svg);
  if (!px) return;
  const found = thingsAt(svg.things || [], photoPoint(svg, event), px);
  if (found.length === 1) openBoxSheet(found[0].box, found[0].stack);
  else if (found.length > 1) chooseBox(found);
  else svg.zoom.bareTap(event);
}

function chooseBox(found) {
  const room = markChosen(found.flatMap((thing) => [thing.box, thing.stack?.strip].filter(Boolean)));
  openSheet(
    h("h2", { "data-testid": "chooser-title" }, "Which card did you mean?"),
    h("p", { class: "hint" }, "These boxes are under your finger:"),
    h(
      "div",
      { class: "label-grid chooser", "data-testid": "chooser" },
      found.map((thing) =>
        h(
          "button",
          {
            class: "button label-choice",
            "data-testid": `choose-box-${thing.box.id}`,
            onclick: () => openBoxSheet(thing.box, thing.stack),
          },
          h("span", { class: "dot", style: `background:${BY_KEY[thing.label]?.colour || "#999"}` }),
          boxName(thing.label),
          thing.stack ? " (two cards)" : "",
        ),
      ),
    ),
    h("div", { class: "actions" }, h("button", { class: "button", onclick: () => closeSheet() }, "Cancel")),
    { room },
  );
}

function area([x1, y1, x2, y2]) {
  return (x2 - x1) * (y2 - y1);
}

// The boxes as a list, each stack one line: a way to every box where the photo is crowded.
function boxList(c, editable) {
  if (!c.detections.length) return h("p", { class: "hint" }, "No cards were found in this photo.");
  const { stacks, partOf } = findStacks(c.detections);
  const things = c.detections.filter((box) => partOf.get(box.id)?.strip !== box);
  const cards = detectedCards(c.detected_tally);
  const uncounted = things.filter((box) => box.counted === false && !partOf.has(box.id)).length;
  const why = [];
  if (stacks.length) why.push(`a nigiri on a wasabi is one box and two cards`);
  if (uncounted) why.push(`${plural(uncounted, "box", "boxes")} not counted (too unsure, or a second box on one card)`);
  const summary = `${plural(things.length, "box", "boxes")}, ${plural(cards, "card")}`;
  return h(
    "details",
    { class: "box-list", "data-testid": "box-list" },
    h("summary", { class: "button", "data-testid": "box-list-button" }, `List the boxes (${summary})`),
    things.length !== cards && why.length
      ? h("p", { class: "hint", "data-testid": "box-count-note" }, `${summary}: ${why.join("; ")}.`)
      : null,
    h(
      "ul",
      {},
      things.map((box) => {
        const stack = partOf.get(box.id) || null;
        const label = stack ? stack.label : box.label;
        return h(
          "li",
          {},
          h(
            "button",
            {
              class: "button compact chip-button",
              disabled: !editable,
              "data-testid": `box-item-${box.id}`,
              onclick: () => openBoxSheet(box, stack),
            },
            h("span", { class: "dot", style: `background:${BY_KEY[label]?.colour || "#999"}` }),
            boxName(label),
            stack ? " · one box, two cards" : "",
            box.source === "reviewer" ? " (added)" : ` ${Math.round(box.confidence * 100)} %`,
            box.counted === false && !stack ? " · not counted" : "",
          ),
        );
      }),
    ),
  );
}

// The cards the boxes read as (a stack is two): the detected tally's count.
function detectedCards(tally) {
  if (!tally) return 0;
  let cards = 0;
  for (const [key, count] of Object.entries(tally)) cards += key.endsWith("_on_wasabi") ? 2 * count : count;
  return cards;
}

function labelGrid(current, choose) {
  return h(
    "div",
    { class: "label-grid" },
    CATEGORIES.map((c) =>
      h(
        "button",
        {
          class: `button label-choice${c.key === current ? " current" : ""}`,
          "aria-pressed": String(c.key === current),
          "data-label": c.key,
          onclick: () => choose(c.key),
        },
        h("span", { class: "dot", style: `background:${c.colour}` }),
        c.name,
      ),
    ),
  );
}

// What a tapped box is and what it could be. A stack's sheet shows the stack as one
// thing, its relabel acting on the nigiri's box; its wasabi strip can go on its own.
function openBoxSheet(box, stack = null) {
  const label = stack ? stack.label : box.label;
  const said = box.detected_label
    ? `The detector said ${boxName(box.detected_label)}.`
    : box.source === "reviewer"
      ? "Added by hand."
      : `Found by the detector (${Math.round(box.confidence * 100)} % sure).`;
  const counted = stack
    ? " One box on the photo, two cards: a nigiri on a wasabi."
    : box.counted === false
      ? " It is not counted: too unsure, or a second box on the same card."
      : "";
  const strip = stack?.strip;
  const room = markChosen([box, strip].filter(Boolean));
  openSheet(
    h("h2", { "data-testid": "box-sheet-title" }, `${stack ? "This stack" : "This card"}: ${boxName(label)}`),
    h("p", { class: "hint" }, said, counted, " Tap what it really is:"),
    labelGrid(label, (chosen) => {
      closeSheet();
      if (chosen !== label) correct({ action: "relabel", detection: box.id, label: chosen });
    }),
    h(
      "div",
      { class: "actions" },
      h(
        "button",
        {
          class: "button danger",
          "data-testid": "delete-box",
          onclick: () => {
            closeSheet();
            correct({ action: "delete", detection: box.id });
          },
        },
        stack ? "Delete this stack's box" : "Delete this box",
      ),
      strip
        ? h(
            "button",
            {
              class: "button",
              "data-testid": "delete-strip",
              onclick: () => {
                closeSheet();
                correct({ action: "delete", detection: strip.id });
              },
            },
            "No wasabi under it",
          )
        : null,
      h("button", { class: "button", onclick: () => closeSheet() }, "Cancel"),
    ),
    { room },
  );
}

// The box being changed stays in view above the sheet, marked, so that one sees which
// box the finger hit: the page scrolls it to just under the top bar, and the sheet
// takes the height below it (never less than half the screen; it scrolls inside).
function markChosen(boxes) {
  const svg = app.photoCache.svg;
  const nodes = boxes.map((b) => svg?.querySelector(`g.box[data-box-id="${b.id}"]`)).filter(Boolean);
  app.chosen = new Set(boxes.map((b) => b.id));
  if (svg?.zoom) {
    const [x1, y1, x2, y2] = collectionRegion(boxes);
    svg.zoom.reveal([x1, y1, x2, y2]);
  }
  for (const node of svg?.querySelectorAll("g.box") || []) {
    node.classList.toggle("chosen", app.chosen.has(Number(node.dataset.boxId)));
  }
  if (!nodes.length || !svg.isConnected) return null;
  const frames = nodes.map((n) => n.querySelector("rect.frame"));
  const top = Math.min(...frames.map((f) => f.getBoundingClientRect().top));
  const bar = document.querySelector(".topbar").getBoundingClientRect().bottom;
  window.scrollBy({ top: top - bar - 12, behavior: "instant" });
  const bottom = Math.max(...frames.map((f) => f.getBoundingClientRect().bottom));
  return Math.max(innerHeight / 2, innerHeight - bottom - 12);
}

// Drawing a box: only in "add" mode, so that a finger elsewhere still scrolls the page.
function photoPoint(svg, event) {
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const inside = point.matrixTransform(svg.getScreenCTM().inverse());
  const { width, height } = svg.photoSize;
  return { x: Math.min(Math.max(inside.x, 0), width), y: Math.min(Math.max(inside.y, 0), height) };
}

function startDrawing(event, svg) {
  if (!app.drawMode || !canEdit()) return;
  event.preventDefault();
  svg.setPointerCapture?.(event.pointerId);
  const start = photoPoint(svg, event);
  const rect = s("rect", { class: "new-box", x: start.x, y: start.y, width: 0, height: 0 });
  svg.querySelector("g.drawing").replaceChildren(rect);
  app.drawing = { start, end: start, rect };
}

function moveDrawing(event, svg) {
  if (!app.drawing) return;
  event.preventDefault();
  const end = photoPoint(svg, event);
  const { start, rect } = app.drawing;
  app.drawing.end = end;
  rect.setAttribute("x", Math.min(start.x, end.x));
  rect.setAttribute("y", Math.min(start.y, end.y));
  rect.setAttribute("width", Math.abs(end.x - start.x));
  rect.setAttribute("height", Math.abs(end.y - start.y));
}

function endDrawing(event, svg) {
  if (!app.drawing) return;
  moveDrawing(event, svg);
  const { start, end } = app.drawing;
  const box = [Math.min(start.x, end.x), Math.min(start.y, end.y), Math.max(start.x, end.x), Math.max(start.y, end.y)];
  const small = unitsPerPixel(svg) * 10; // a drag of under 10 CSS px draws no box
  if (box[2] - box[0] < small || box[3] - box[1] < small) {
    cancelDrawing(svg);
    toast("Drag across the whole card to draw its box.", "info");
    return;
  }
  const rounded = box.map((v) => Math.round(v * 10) / 10);
  openSheet(
    h("h2", {}, "What card is this?"),
    labelGrid(null, (label) => {
      app.drawing = null;
      app.drawMode = false;
      closeSheet();
      svg.querySelector("g.drawing").replaceChildren();
      correct({ action: "add", box: rounded, label });
    }),
    h("div", { class: "actions" }, h("button", { class: "button", onclick: () => closeSheet() }, "Cancel")),
  );
}

function cancelDrawing(svg) {
  app.drawing = null;
  svg.querySelector("g.drawing")?.replaceChildren();
}

function counters(c, editable) {
  const section = h("section", { class: "counters", "data-testid": "counters" });
  section.append(h("h2", {}, "Cards by category"));
  const detected = c.detected_tally;
  let group = null;
  for (const cat of CATEGORIES) {
    if (cat.group !== group) {
      group = cat.group;
      section.append(h("h3", {}, group));
    }
    const count = c.tally[cat.key];
    const byHand = Object.hasOwn(c.counts, cat.key);
    const note =
      byHand && detected
        ? h(
            "small",
            { class: "by-hand" },
            `set by hand; photo says ${detected[cat.key]} `,
            editable
              ? h(
                  "button",
                  { class: "link", "data-testid": `use-photo-${cat.key}`, onclick: () => useDetectedCount(cat.key) },
                  "use photo",
                )
              : null,
          )
        : null;
    section.append(
      h(
        "div",
        { class: `counter${count ? " some" : ""}${byHand ? " hand" : ""}`, "data-testid": `counter-${cat.key}` },
        h(
          "span",
          { class: "counter-name" },
          h("span", { class: "dot", style: `background:${cat.colour}` }),
          h("span", {}, cat.name, note ? h("br") : null, note),
        ),
        h(
          "button",
          {
            class: "step",
            disabled: !editable || count === 0,
            "aria-label": `One fewer ${cat.name}`,
            "data-testid": `minus-${cat.key}`,
            onclick: () => changeCount(cat.key, -1),
          },
          "−",
        ),
        h("output", { class: "count", "data-testid": `count-${cat.key}`, "aria-live": "polite" }, count),
        h(
          "button",
          {
            class: "step",
            disabled: !editable,
            "aria-label": `One more ${cat.name}`,
            "data-testid": `plus-${cat.key}`,
            onclick: () => changeCount(cat.key, 1),
          },
          "+",
        ),
      ),
    );
  }
  const t = c.tally;
  const icons = t.maki_1 + 2 * t.maki_2 + 3 * t.maki_3;
  section.append(h("p", { class: "hint" }, `Maki roll icons: ${icons}. A nigiri on a wasabi counts once, in its “on wasabi” line.`));
  return section;
}

function confirmBar(c) {
  const ok = c.cards === c.hand_size;
  return h(
    "div",
    { class: "confirm-bar" },
    h(
      "span",
      { class: `bar-check ${ok ? "ok" : "bad"}` },
      `${c.cards}/${c.hand_size} cards`,
    ),
    c.status === "confirmed"
      ? h(
          "button",
          { class: "button primary", "data-testid": "done", onclick: () => go({ game: app.game.id, round: c.round }) },
          "Confirmed ✓ Back to the round",
        )
      : h(
          "button",
          {
            class: "button primary",
            disabled: c.status === "empty",
            "data-testid": "confirm",
            onclick: () => confirmTally(),
          },
          `Confirm ${c.player}'s cards`,
        ),
  );
}

// --- start -----------------------------------------------------------------------------------

// For tests and the curious: whether the page has nothing in flight.
window.sushigo = {
  idle: () => app.busy === 0 && !app.loading && !app.uploading && !app.polling,
};

takeTokenFromLink();
load();

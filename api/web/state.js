// The page's state, one object that every screen reads and writes (app), and the route:
// the game, round and seat in the address bar.

import { memory } from "./memory.js";
import { load } from "./loading.js";
import { focusScreen } from "./dom.js";

export const GAME_ID = /^[A-Za-z0-9_-]{1,32}$/;
// A game's code as the server makes it (api/games.py CODE_ALPHABET): no look-alikes.
const CODE = /^[0-9a-hjkmnp-tv-z]{12}$/;

// A code typed by eye, as its game has it: spaces and dashes gone, any case, an O read as
// 0 and an I or L as 1; null where that is no such code (an older game's is kept as typed).
export function typedCode(text) {
  const code = text.replace(/[\s-]+/g, "").toLowerCase().replace(/o/g, "0").replace(/[il]/g, "1");
  return CODE.test(code) ? code : null;
}

// A code shown in groups of four, to read aloud or copy by eye ("k3m9 x2qp 7tva").
export function shownCode(id) {
  return CODE.test(id) ? id.match(/.{4}/g).join(" ") : id;
}

export const app = {
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
  showShare: false, // true, false, or "new game": open until the game has started
  confirmReopen: false,
  recordProblems: null,
  notice: null,
  photoCache: { id: null, svg: null },
  chosen: new Set(), // the boxes whose sheet is open: marked on the photo
  scrolledFor: null, // {y, href}: where the page was before a sheet scrolled its box up
  touched: null, // the data-testid of the control last touched: kept in place (game.render)
  sheetEntry: null, // the number of the history entry an open sheet stands on (sheet.js)
  leavingSheet: null, // a promise: the page's step back off that entry, under way
  renderedData: "",
  generation: 0, // moves on with every write and load: a poll older than it is stale
};

export function readRoute() {
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

export function routeUrl(route) {
  const query = new URLSearchParams();
  if (route.game) query.set("game", route.game);
  if (route.round) query.set("round", String(route.round));
  if (route.round && route.seat) query.set("seat", String(route.seat));
  const text = query.toString();
  return text ? `/?${text}` : "/";
}

// Another screen opens at its top: a page scrolled to "Go to round 2" had opened the next
// review halfway down its photo, the hand check and the warnings above the screen.
export async function go(route, { replace = false } = {}) {
  // A sheet just closed is still stepping back off its history entry: the new screen's
  // entry goes after that, or Back would lead to the sheet's screen twice.
  await app.leavingSheet;
  app.touched = null; // another screen opens at its top
  history[replace ? "replaceState" : "pushState"]({}, "", routeUrl(route));
  app.drawMode = false;
  app.confirmReopen = false;
  app.recordProblems = null;
  await load();
  window.scrollTo(0, 0);
  focusScreen();
}

// An edit link carries the token in its fragment (never sent to the server): keep it on
// this phone and take it out of the address bar. Whether there was one to take.
export function takeTokenFromLink() {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ""));
  const token = fragment.get("edit");
  const route = readRoute();
  if (!token || !route.game) return false;
  memory.setToken(route.game, token);
  history.replaceState({}, "", routeUrl(route));
  return true;
}

export function selectedRound(game = app.game, route = app.route) {
  if (!game) return null;
  if (route.round && route.round <= game.rounds) return route.round;
  const reopened = game.round_states.find((r) => r.status === "reopened");
  if (reopened) return reopened.number;
  return game.current_round ?? game.rounds;
}

export function canEdit() {
  return Boolean(app.api?.token);
}

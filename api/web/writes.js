// Every change the page sends: one at a time, in order, each with the version the one
// before it returned; one that fails says why and shows the game as it is now.

import { ApiError } from "./api.js";
import { CATEGORIES } from "./cards.js";
import { h, plural } from "./dom.js";
import { memory } from "./memory.js";
import { app, go } from "./state.js";
import { fetchAll, setOffline } from "./loading.js";
import { closeSheet, openSheet, toast } from "./sheet.js";
import { render } from "./game.js";
import { markedCards } from "./review.js";

let queue = Promise.resolve();

// A task run after the writes queued before it, where write's own handling of a failure
// does not fit (an upload answers its failures itself).
export function afterWrites(task) {
  queue = queue.then(task);
  return queue;
}

export function setBusy(delta) {
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

export async function writeFailed(error) {
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
    // Said whole in a toast's three lines: that the tap did not count, and what to do.
    toast("Not saved: changed on another phone first. Try again.", "error");
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

export function correct(correction) {
  return collectionWrite((api, c) =>
    api.correct(c.round, c.seat, { ...correction, version: c.version }),
  );
}

// +1 / -1 from a counter: the server adds it to the count as it stands, and the audit
// says "one more", not a bare new total.
export function changeCount(key, delta) {
  return correct({ action: "adjust_count", category: key, delta });
}

export function useDetectedCount(key) {
  return correct({ action: "set_counts", counts: { [key]: null } });
}

// Undo takes back the cards' last change, whichever phone made it: it says which counts
// it moved, so that a player whose own tap was not the last sees it (at a table, another
// phone's + had been undone in silence).
export function undo() {
  return collectionWrite(async (api, c) => {
    const result = await api.undo(c.round, c.seat, c.version);
    toast(undone(c.tally, result.tally), "info");
    return result;
  });
}

function undone(before, after) {
  const moved = CATEGORIES.filter((cat) => before[cat.key] !== after[cat.key]).map(
    (cat) => [cat.short, before[cat.key], after[cat.key]],
  );
  if (!moved.length) return "Undone: a change to the boxes, no count.";
  return `Undone: ${moves(moved)}`;
}

// "Tempura 2 → 1, Egg 0 → 1." for what moved: two at most, in a toast's three short lines.
function moves(moved) {
  const named = moved.slice(0, 2).map(([what, before, after]) => `${what} ${before} → ${after}`);
  return `${named.join(", ")}${moved.length > 2 ? ", …" : ""}.`;
}

// A hand that is not the hand size, or a card still marked "?" (a warning points at it), is
// confirmed only once the player says so, in the server's words ("8 of 10 cards found"),
// read after the writes already queued.
export function confirmTally() {
  return queue.then(() => {
    const c = app.collection;
    if (!c) return null;
    const marked = markedCards(c);
    const asks = [c.hand_note, marked ? `${plural(marked, "card")} still marked “?”` : null].filter(Boolean);
    if (!asks.length) return sendConfirm();
    openSheet(
      h("h2", {}, `${c.player}'s cards`),
      h("p", { "data-testid": "confirm-question" }, `${asks.join(", and ")}: confirm anyway?`),
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
export function restoreReading(earlier) {
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

export function recordRound(acceptProblems) {
  const number = app.round.number;
  // A round fixed and recorded again says whose totals it changed (from the standings
  // before and after); it had said only "recorded", as a first record does.
  const again = app.round.status === "reopened";
  const totals = new Map((app.standings?.players ?? []).map((p) => [p.name, p.total]));
  return write(async () => {
    try {
      app.round = await app.api.record(number, await roundVersion(number), acceptProblems);
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && error.body?.problems) {
        app.recordProblems = { message: error.message, problems: error.body.problems };
        render();
        return;
      }
      if (error instanceof ApiError && error.body?.reason === "round_recorded") {
        // Two phones tapped Record together: what was asked is done, no error, and the
        // screen is the one this phone's own record would have opened.
        toast(`Round ${number} was recorded on another phone.`, "info");
        await go(afterRecord(number), { replace: true });
        return;
      }
      throw error;
    }
    app.recordProblems = null;
    // A toast has three short lines: more than one hand off its size is counted, not named.
    const short = app.round.collections.filter((c) => c.hand_note);
    const named =
      short.length === 1
        ? ` ${short[0].player}: ${short[0].hand_note}.`
        : short.length > 1
          ? ` ${short.length} hands were not the hand size.`
          : "";
    if (!again) toast(`Round ${number} is recorded.${named}`, "info");
    await go(afterRecord(number), { replace: true });
    if (again) toast(`Round ${number} is recorded again: ${changedTotals(totals)}`, "info");
  });
}

// The screen a record of round `number` opens: the game's last record its final results
// (no round named: game.gameScreen), the winner on the first screen rather than under
// this round's table; any other the round's own.
function afterRecord(number) {
  const last =
    app.game.round_states.length === app.game.rounds &&
    app.game.round_states.every((r) => r.number === number || r.status === "recorded");
  return last ? { game: app.game.id } : { game: app.game.id, round: number };
}

// "Ben 41 → 42." for the players whose totals moved, or that none did.
function changedTotals(before) {
  const moved = (app.standings?.players ?? [])
    .filter((p) => before.has(p.name) && before.get(p.name) !== p.total)
    .map((p) => [p.name, before.get(p.name), p.total]);
  return moved.length ? moves(moved) : "no total changed.";
}

export function reopenRound() {
  const number = app.round.number;
  return write(async () => {
    app.round = await app.api.reopen(number, await roundVersion(number));
    app.confirmReopen = false;
    // Three short lines beside the home link at 320 px (sheet.toast).
    toast(`Round ${number} is open: fix it, then record it again.`, "info");
    await go({ game: app.game.id, round: number }, { replace: true });
  });
}

// The table-side page: start a game, photograph each player's cards, review and correct
// the detections, record rounds, follow the standings. Everything lives on the server:
// the page keeps only the game id and the edit token (URL and localStorage), so a
// refresh or a lost connection loses nothing.
//
// This module starts the page. The rest, by what it holds: dom.js (building elements),
// memory.js (what this phone remembers), state.js (the page's state and its routes),
// loading.js (reading from the server, polling), writes.js (every change, in order),
// upload.js (photos), sheet.js (the dialog and toasts), home.js, game.js and review.js
// (the three screens); api.js, cards.js, photo.js, boxes.js, stacks.js, zoom.js, chart.js
// and stats.js below them.

import { load, startPolling } from "./loading.js";
import { setUpSheet } from "./sheet.js";
import { app, takeTokenFromLink } from "./state.js";

// Nothing starts in a browser too old for the page: browser-check.js has said so.
if (!window.sushigoTooOld) start();

function start() {
  startPolling();
  setUpSheet();
  // The control a finger or a key last touched, kept where it is when its screen is built
  // anew (game.render); a touch on the sheet is none of the screen's.
  for (const type of ["pointerdown", "keydown"]) {
    document.addEventListener(
      type,
      (event) => {
        const target = event.target instanceof Element ? event.target : null;
        app.touched = target?.closest("#app [data-testid]")?.dataset.testid ?? null;
      },
      true,
    );
  }

  // For tests and the curious: whether the page has nothing in flight.
  window.sushigo = {
    idle: () => app.busy === 0 && !app.loading && !app.uploading && !app.polling,
  };

  takeTokenFromLink();
  load();
}

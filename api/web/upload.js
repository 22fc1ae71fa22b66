// A player's photo: the camera and file buttons, the question before it replaces reviewed
// cards, the upload with its progress, and the way on when it fails.

import { ApiError } from "./api.js";
import { photoForUpload, uploadFailure } from "./photo.js";
import { h, s } from "./dom.js";
import { app, go } from "./state.js";
import { afterWrites, setBusy, writeFailed } from "./writes.js";
import { closeSheet, openSheet } from "./sheet.js";
import { render } from "./game.js";

export function photoInputs(number, seat, name, options = {}) {
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
      `Replace ${name}'s ${stake.confirmed ? "confirmed" : "corrected"} cards? ${kept}`,
    ),
    h(
      "div",
      { class: "actions" },
      h(
        "button",
        { class: "button primary", "data-testid": "replace-yes", onclick: () => uploadPhoto(number, seat, name, file, true) },
        "Replace",
      ),
      // Focused first: Enter or a stray tap on a keyboard's key keeps the cards.
      h("button", { class: "button", "data-testid": "replace-no", autofocus: true, onclick: () => closeSheet() }, "Keep them"),
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
  afterWrites(async () => {
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
          label.textContent = `Uploading… ${Math.round(part * 100)}%`;
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

// The sheet (a modal dialog for questions and choices) and the toasts (notifications).

import { inWords } from "./cards.js";
import { FOCUSABLE, append, h } from "./dom.js";
import { app } from "./state.js";

export const sheet = document.getElementById("sheet");

export function openSheet(...children) {
  let options = {};
  const last = children.at(-1);
  if (last && typeof last === "object" && !(last instanceof Node) && !Array.isArray(last)) {
    options = children.pop();
  }
  sheet.replaceChildren();
  append(sheet, children);
  sheet.dataset.closable = options.closable === false ? "no" : "yes";
  sheet.classList.toggle("over-photo", Boolean(options.room));
  // The room below the box being changed (style.css: a phone's sheet takes it; beside
  // the photo on a wide screen, the sheet takes the screen's height instead).
  if (options.room) sheet.style.setProperty("--room", `${Math.floor(options.room)}px`);
  else sheet.style.removeProperty("--room");
  const opening = !sheet.open;
  if (opening) {
    sheet.showModal();
  } else {
    // One sheet in place of another (the chooser's box): the focus had fallen to the page.
    const first = sheet.querySelector("[autofocus]") ?? sheet.querySelector(FOCUSABLE);
    first?.focus({ preventScroll: true });
  }
  // Opened at its top, whatever it focused: scrolled to the box's own card, a stack's
  // sheet had hidden its title and "No wasabi under it" above a phone's screen.
  sheet.scrollTop = 0;
  if (opening) {
    // A phone's Back closes a sheet the player may close, as it does any dialog there,
    // rather than leave the screen under it: the sheet stands on a history entry of its
    // own, pushed once the last sheet's entry is gone (a push during that step back had
    // the step land on the new sheet's entry and close it).
    if (app.leavingSheet) app.leavingSheet.then(standOnEntry);
    else standOnEntry();
  }
}

let sheetsOpened = 0;
let scrollMode = "auto"; // the screen's entry's, while a sheet's entry stands on it

// (Not for a sheet the player may not close, nor for one closed or given an entry since.)
function standOnEntry() {
  if (!sheet.open || app.sheetEntry || sheet.dataset.closable === "no") return;
  sheetsOpened += 1;
  app.sheetEntry = sheetsOpened;
  // Each entry keeps its own mode: stepping back onto the screen's entry must leave the
  // page where it is, not scroll it to where it stood when the sheet opened (the close
  // puts it back itself, app.scrolledFor).
  scrollMode = history.scrollRestoration;
  history.scrollRestoration = "manual";
  history.pushState({ sheet: sheetsOpened }, "", location.href);
}

// Back on the screen's own entry, its scroll restored as before the sheet.
function offSheetEntry() {
  history.scrollRestoration = scrollMode;
}

export function closeSheet() {
  leaveSheetEntry();
  if (sheet.open) sheet.close();
  sheet.replaceChildren();
}

// A sheet closed by a tap takes its history entry with it, so that Back then leaves the
// screen; a navigation waits for that (state.go awaits app.leavingSheet).
function leaveSheetEntry() {
  if (!app.sheetEntry) return;
  app.sheetEntry = null;
  app.leavingSheet = new Promise((resolve) => {
    const done = () => {
      window.removeEventListener("popstate", done);
      clearTimeout(waiting);
      offSheetEntry();
      app.leavingSheet = null;
      resolve();
    };
    window.addEventListener("popstate", done);
    const waiting = setTimeout(done, 3000); // a browser that declines it holds nothing up
  });
  history.back();
}

// Whether a history step was the sheet's (the popstate handler then does nothing more):
// Back off an open sheet's entry closes the sheet alone; the page's own step back off a
// closed sheet's entry, and a step forward onto an open sheet's entry, change nothing.
export function backClosesSheet() {
  if (app.leavingSheet) return true;
  if (!app.sheetEntry) return false;
  if (history.state?.sheet === app.sheetEntry) return true;
  app.sheetEntry = null;
  offSheetEntry();
  closeSheet();
  return true;
}

export function setUpSheet() {
  sheet.addEventListener("cancel", (event) => {
    if (sheet.dataset.closable === "no") event.preventDefault();
  });
  sheet.addEventListener("click", (event) => {
    if (event.target === sheet && sheet.dataset.closable !== "no") closeSheet();
  });
  sheet.addEventListener("close", () => {
    leaveSheetEntry(); // closed by Escape, which closes a dialog without closeSheet
    // The event comes after the dialog closed: a sheet opened since keeps its marks.
    if (!sheet.open) {
      app.chosen = new Set();
      for (const node of document.querySelectorAll("g.box.chosen")) node.classList.remove("chosen");
      sheet.classList.remove("over-photo");
      sheet.style.removeProperty("--room");
      const scrolled = app.scrolledFor;
      app.scrolledFor = null;
      if (scrolled?.href === location.href) window.scrollTo({ top: scrolled.y, behavior: "instant" });
    }
    if (app.drawing) {
      app.drawing = null;
      app.photoCache.svg?.querySelector("g.drawing")?.replaceChildren();
    }
  });
}

// A notification lies over the top bar, where the page has no control but the home link,
// and lets every tap through (pointer-events: none): it once sat over "Fix this round"
// and caught the taps meant for it. Only the newest shows; each goes by itself.
const TOAST_MS = { info: 4000, error: 8000 };

export function toast(message, kind = "info") {
  const box = document.getElementById("toasts");
  // The server's words come lowercase and name cards by key: a sentence, in words.
  const item = h(
    "div",
    { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" },
    h("span", { class: "toast-text" }, inWords(message)),
  );
  // In the top bar beside the home link, never over it (nor over anything below the bar).
  const home = document.querySelector(".topbar .brand");
  box.style.left = home ? `${Math.ceil(home.getBoundingClientRect().right) + 8}px` : "0";
  box.replaceChildren(item);
  setTimeout(() => item.remove(), TOAST_MS[kind] ?? TOAST_MS.info);
}

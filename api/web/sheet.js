// The sheet (a modal dialog for questions and choices) and the toasts (notifications).

import { inWords } from "./cards.js";
import { append, h } from "./dom.js";
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
  sheet.style.maxHeight = options.room ? `${Math.floor(options.room)}px` : "";
  if (!sheet.open) sheet.showModal();
}

export function closeSheet() {
  if (sheet.open) sheet.close();
  sheet.replaceChildren();
}

export function setUpSheet() {
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

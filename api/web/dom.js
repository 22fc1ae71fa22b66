// Building the page's elements: h (HTML) and s (SVG) take attributes and children as the
// screens write them; show puts a screen in the page's main element.

const SVG_NS = "http://www.w3.org/2000/svg";

export const root = document.getElementById("app");

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

export function s(tag, attrs = {}, ...children) {
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

export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// The page's screen, its parts taken as `h` takes children: a part left out (null) is
// skipped, where replaceChildren would have shown it as the word "null".
export function show(...parts) {
  root.replaceChildren();
  append(root, parts);
}

// A screen built anew (`build` gives its parts) and shown with the player's place kept:
// the control last touched (`touched`, a data-testid) where it was on the screen, so that
// a counter's + stays under the finger while a note appears above it; and the focused
// control (a counter's +, a box on the photo) focused again, else the focus fell to the
// page's body and a keyboard's next Tab started from the top (or Shift+Tab reached
// Confirm). Both are read before building, which takes the photo out of the page.
export function showInPlace(touched, build) {
  const held = heldPlace(touched);
  const active = root.contains(document.activeElement) ? document.activeElement : null;
  // The focused control, and those after it in the Tab order, to find again.
  const focused = active ? [active, ...focusables().filter(after(active))].map(keyOf) : [];
  const open = location.search === shownFor ? openParts() : [];
  show(...build());
  shownFor = location.search;
  for (const selector of open) root.querySelector(selector)?.setAttribute("open", "");
  if (held) {
    const node = root.querySelector(held.selector);
    if (node) window.scrollBy({ top: node.getBoundingClientRect().top - held.top, behavior: "instant" });
  }
  if (active && !root.contains(document.activeElement)) refocus(focused);
}

// The focus back where it was: on the same control, else (gone, or disabled: a − at 0,
// Undo with nothing left) on a question the change asked (data-autofocus: "Re-open
// round 1?"), else on the first control after it that is still there. It had fallen to
// the page's body, and the next Tab started again from the top.
function refocus([same, ...following]) {
  if (same === "h1") return focusScreen();
  const usable = (key) => {
    const node = key && root.querySelector(key);
    return node && !node.disabled ? node : null;
  };
  const next = usable(same) || root.querySelector("[data-autofocus]") || following.map(usable).find(Boolean);
  next?.focus({ preventScroll: true });
}

const after = (node) => (other) => node.compareDocumentPosition(other) & Node.DOCUMENT_POSITION_FOLLOWING;

export const FOCUSABLE =
  "a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea, summary, [tabindex]:not([tabindex='-1'])";

function focusables() {
  return [...root.querySelectorAll(FOCUSABLE)].filter((node) => !node.closest("[hidden], details:not([open]) > :not(summary)"));
}

// A new screen (another route) takes the focus to its heading, as a page load would start
// a screen reader or a keyboard there: it had stayed on the body, the next Tab starting
// from the top bar.
export function focusScreen() {
  const heading = root.querySelector("h1");
  if (!heading) return;
  heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
}

// The address the screen shown was built for: a part opened on it (the box list, a
// round's cards) stays open when the same screen is built anew, as another phone's change
// arrives; it had closed, and the controls under it moved under the player's finger.
let shownFor = null;

function openParts() {
  return [...root.querySelectorAll("details[open][data-testid]")].map(
    (part) => `details[data-testid="${CSS.escape(part.dataset.testid)}"]`,
  );
}

// Where the control of data-testid `testid` lies on the screen; null where it is not on
// screen (its place is then no one's to keep).
function heldPlace(testid) {
  if (!testid) return null;
  const selector = `[data-testid="${CSS.escape(testid)}"]`;
  const top = root.querySelector(selector)?.getBoundingClientRect().top;
  return top >= 0 && top <= innerHeight ? { selector, top } : null;
}

// A control, by its test id or its box id, to find it again in a new screen.
function keyOf(node) {
  if (node.dataset?.testid) return `[data-testid="${CSS.escape(node.dataset.testid)}"]`;
  if (node.dataset?.boxId) return `g.box[data-box-id="${CSS.escape(node.dataset.boxId)}"]`;
  if (node.tagName === "H1") return "h1"; // a new screen's heading (focusScreen)
  return null;
}

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

export function listNames(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

// A table that may be wider than a phone, in a frame that scrolls it sideways and shades
// the side where more of it lies (data-more "left"/"right"): otherwise a total cut off at
// the screen's edge looks like a table that ends there.
export function scrolling(table) {
  const scroller = h("div", { class: "table-scroll" }, table);
  const frame = h("div", { class: "table-frame" }, scroller);
  const mark = () => {
    const more = [];
    if (scroller.scrollLeft > 1) more.push("left");
    if (scroller.scrollLeft + scroller.clientWidth < scroller.scrollWidth - 1) more.push("right");
    frame.dataset.more = more.join(" ");
  };
  scroller.addEventListener("scroll", mark, { passive: true });
  const resized = new ResizeObserver(mark);
  resized.observe(scroller);
  resized.observe(table);
  return frame;
}

// Reviewing a player's cards: the photo with its boxes (tap, choose, relabel, delete, draw
// a missed card), the box list, the warnings, the counters and confirming.

import { BY_KEY, CATEGORIES, boxName, handCount, inWords, tagName } from "./cards.js";
import { findStacks, nigiriOf, unstacking } from "./stacks.js";
import { area, firstThing, isArrow, layoutTags, neighbour, thingsAt, unitsPerPixel } from "./boxes.js";
import { collectionRegion, frameAspect, makeZoomable } from "./zoom.js";
import { h, plural, s } from "./dom.js";
import { app, canEdit, go } from "./state.js";
import {
  changeCount,
  confirmTally,
  correct,
  restoreReading,
  undo,
  useDetectedCount,
} from "./writes.js";
import { photoInputs } from "./upload.js";
import { closeSheet, openSheet, toast } from "./sheet.js";
import { render } from "./game.js";

export function reviewScreen() {
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
    // "round 3" whole on its own line where the name leaves no room: a dot had been left
    // at the end of the first ("Cleo's cards ·").
    h("h1", {}, `${c.player}'s cards`, " ", h("small", {}, `round ${c.round}`)),
  );
  const status = h(
    "p",
    { class: `chip ${c.status === "confirmed" ? "ok" : c.status === "draft" ? "warn" : "muted"}`, "data-testid": "review-status" },
    c.status === "confirmed" ? "Confirmed" : c.status === "draft" ? "Not confirmed yet" : "Nothing entered yet",
  );
  const banners = [];
  if (!canEdit()) banners.push(h("p", { class: "banner" }, "View only: open the edit link to change these cards."));
  else if (c.round_status === "recorded") {
    banners.push(h("p", { class: "banner" }, `Round ${c.round} is recorded. To change it, go back and tap “Fix this round”.`));
  }

  const photoSide = h("div", { class: "photo-side" }, c.photo ? photoPanel(c, editable) : noPhoto(c, editable));
  const tallySide = h("div", { class: "tally-side" }, counters(c, editable));
  const bar = editable ? confirmBar(c) : null;
  // What to check sits under the hand check, on the first screen with the Confirm bar:
  // below the photo a reviewer could confirm without having seen it. On a phone it comes
  // before the photo; beside it on a wide screen (style.css), over the counters, so that
  // the photo starts high and fits above the Confirm bar.
  const toCheck = h("div", { class: "review-status" }, status, handCheck(c), warningsList(c, editable));
  return [head, ...banners, h("div", { class: `review${c.photo ? "" : " no-photo-yet"}` }, toCheck, photoSide, tallySide), earlierList(c, editable), bar];
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
            ` · ${handCount(e.cards, c.hand_size)}`,
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

// How the cards stand against the hand size: "ok", "bad", or "supposed" where the count
// holds only if a wasabi is under the nigiri the hand size marked "?" (no green tick).
function handStanding(c) {
  if (c.cards !== c.hand_size) return "bad";
  return c.hand_supposed ? "supposed" : "ok";
}

function handCheck(c) {
  const standing = handStanding(c);
  const ok = standing !== "bad";
  const supposed = standing === "supposed";
  // Counting by hand, nothing counted yet is no problem: no red "10 cards may be missing".
  const begun = Boolean(c.photo) || c.cards > 0;
  const kind = ok || begun ? ` ${standing}` : "";
  return h(
    "p",
    { class: `hand-check${kind}`, "data-testid": "hand-check", role: "status" },
    supposed ? "? " : ok ? "✓ " : begun ? "! " : "",
    // Counted by hand, the cards are "counted": none was found in a photo.
    begun
      ? `${c.hand_size} cards expected, ${c.cards} ${c.photo ? "found" : "counted"}`
      : `${c.hand_size} cards expected, none counted yet`,
    supposed ? ` if ${supposedStack(c)} is right` : "",
    // The count is the headline; what it may mean is said smaller (style.css).
    ok || !begun ? "" : h("span", { class: "why" }, handOff(c)),
  );
}

// The stack the hand size supposed, by its tag on the photo: other boxes may ask with
// "?" too (a plain nigiri that may lie on a wasabi), and "the stack marked ?" had not
// said which.
function supposedStack(c) {
  const box = c.detections.find((b) => b.supposed);
  return box ? `the stack tagged “${tagName(box.label)} ?”` : "the stack marked “?”";
}

// What a hand short of its size (or over it) may mean. A photo over its hand holds a
// neighbour's cards more often than a card boxed twice; a photo within it, brought over
// by cards set by hand, was counted twice by hand.
function handOff(c) {
  const short = c.hand_size - c.cards;
  if (short === 1) return ": a card may be missing";
  if (short > 1) return `: ${short} cards may be missing`;
  const byHand = c.photo && detectedCards(c.detected_tally) <= c.hand_size;
  const which = byHand ? " set by hand" : "";
  const why = c.photo && !byHand ? "a neighbour's, or counted twice" : "counted twice";
  return short === -1 ? `: a card${which} may be ${why}` : `: ${-short} cards${which} may be ${why}`;
}

function warningsList(c, editable) {
  const messages = [
    ...c.warnings.map((text) => ({ severity: "warning", message: text })),
    ...c.problems.filter((p) => p.code !== "too_few_cards" && p.code !== "too_many_cards"),
    // Notes only tell what the reading did (a turn, a closer look): shown last, quietly.
    ...c.notes.map((text) => ({ severity: "note", message: text })),
  ];
  if (!messages.length) return null;
  return h(
    "ul",
    { class: "problems", "data-testid": "warnings" },
    messages.map((p, i) => {
      const words = inWords(p.message);
      // A warning about cards on the photo is a button that shows them: with a few
      // warnings above it, the photo starts under the Confirm bar (at 320 px wholly).
      const ids =
        p.severity === "warning" && c.photo
          ? c.detections.filter((box) => box.asks?.includes(p.message)).map((box) => box.id)
          : [];
      if (!ids.length) return h("li", { class: p.severity }, words);
      const leftOut = new Set(c.detections.filter((box) => box.left_out).map((box) => box.id));
      return h(
        "li",
        { class: p.severity },
        h(
          "button",
          {
            class: "show-asked",
            "data-testid": `show-asked-${i}`,
            "aria-label": `${words}. Show ${ids.length === 1 ? "it" : "them"} on the photo`,
            onclick: () => showAsked(ids),
          },
          words,
          " ",
          h("span", { class: "show" }, "Show"),
        ),
        editable && ids.every((id) => leftOut.has(id)) ? swapButton(ids.length) : null,
      );
    }),
  );
}

// Where the reading took the next player's collection, caught in the photo, for this one
// (counting it, leaving this player's own cards out at the edge), one tap turns both sides
// over: some forty taps, a card at a time. Undo turns them back.
function swapButton(count) {
  const words = `Count ${count === 1 ? "it" : "them"} instead`;
  return h(
    "button",
    {
      class: "button swap-left-out",
      "data-testid": "swap-left-out",
      // Its words first, so that a voice saying them finds it.
      "aria-label": `${words}: count ${count === 1 ? "this card" : "these cards"} as this player's, and leave out the cards counted`,
      onclick: (event) => {
        event.currentTarget.disabled = true; // a second tap would be a second swap (refused)
        correct({ action: "swap_left_out" });
      },
    },
    words,
  );
}

// On a tablet or a laptop the photo's frame is narrowed to fit between its top and the
// Confirm bar: its bottom cards had sat under the bar on the first screen. A phone's
// photo keeps the screen's width (its frame no taller than square, zoom.frameAspect;
// Show on a warning brings a card into view).
const FIT_FROM = 480; // px: a photo column this wide is no phone's (the widest, 430 px screens)
const MIN_PHOTO_HEIGHT = 280; // px: a frame narrowed no further

function fitPhoto(figure) {
  const svg = figure.querySelector(".photo-svg");
  const column = figure.closest(".photo-side");
  if (!svg || !column) return;
  let fit = "none";
  if (column.clientWidth >= FIT_FROM) {
    const top = figure.getBoundingClientRect().top + window.scrollY;
    const room = betweenBars().bottom - top - 12;
    fit = `${Math.round(Math.max(room, MIN_PHOTO_HEIGHT) * svg.aspect)}px`;
  }
  svg.dataset.fit = fit;
  figure.style.maxWidth = fit;
}

// Escape leaves "add a missed card" as it closes a sheet (a sheet open takes it first).
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || !app.drawMode || document.querySelector("dialog[open]")) return;
  app.drawMode = false;
  if (app.photoCache.svg) cancelDrawing(app.photoCache.svg);
  render();
});

window.addEventListener("resize", () => {
  const figure = document.querySelector(".review figure.photo");
  if (figure) fitPhoto(figure);
});

// The boxes a warning asks about, in view: the zoom brings them closer (zoom.show; only
// pans where it is as close already), and the page scrolls them to the middle of the
// room between the top bar and the Confirm bar (their tops first where they do not fit),
// unless they are in it.
function showAsked(ids) {
  const svg = app.photoCache.svg;
  if (!svg?.isConnected) return;
  const boxes = app.collection?.detections.filter((box) => ids.includes(box.id)) ?? [];
  const region = collectionRegion(boxes);
  if (region) svg.zoom.show(region);
  const frames = framesOf(svg, ids);
  if (!frames.length) return;
  flash(frames);
  bringBetweenBars(frames);
}

// The page scrolled so that `frames` lie in the middle of the room between the top bar
// and the Confirm bar (their tops first where they do not fit), unless they are in it.
function bringBetweenBars(frames) {
  const { top, bottom } = extent(frames);
  const bars = betweenBars();
  const above = bars.top + 12;
  const below = bars.bottom - 12;
  if (top >= above && bottom <= below) return;
  const middle = (top + bottom) / 2 - (above + below) / 2;
  window.scrollBy({ top: Math.min(middle, top - above), behavior: "instant" });
}

// The frames on `svg` of the boxes of these ids.
function framesOf(svg, ids) {
  return ids.map((id) => svg?.querySelector(`g.box[data-box-id="${id}"] rect.frame`)).filter(Boolean);
}

// Where `frames` lie on the screen: the top of the highest, the bottom of the lowest.
function extent(frames) {
  const rects = frames.map((f) => f.getBoundingClientRect());
  return { top: Math.min(...rects.map((r) => r.top)), bottom: Math.max(...rects.map((r) => r.bottom)) };
}

// The screen left between the top bar and the Confirm bar (the screen's foot without one).
function betweenBars() {
  return {
    top: document.querySelector(".topbar").getBoundingClientRect().bottom,
    bottom: document.querySelector(".confirm-bar")?.getBoundingClientRect().top ?? innerHeight,
  };
}

function flash(frames) {
  for (const frame of frames) frame.parentElement.classList.add("shown");
  setTimeout(() => frames.forEach((f) => f.parentElement.classList.remove("shown")), 1500);
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
  // As wide as the last fit left it (kept on the photo, built once), then fitted anew.
  const figure = h("figure", { class: "photo", style: `max-width: ${svg.dataset.fit || "none"}` }, svg);
  requestAnimationFrame(() => fitPhoto(figure));
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
              // The photo held in place, to be drawn on: held by this button, it had moved
              // up by the longer hint's line, from under the finger about to draw.
              app.touched = "photo";
              render();
            },
          },
          app.drawMode ? "Drag over the missed card…" : "+ Add a missed card",
        ),
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
  // The zoom row over the photo: under a phone's upright photo it fell behind the
  // confirm bar on the first screen.
  return [zoomTools, figure, hint, tools, boxList(c, editable)];
}

function photoSvg(c, editable) {
  const { width, height, id } = c.photo;
  let svg = app.photoCache.id === id ? app.photoCache.svg : null;
  if (!svg) {
    const cards = collectionRegion(c.detections);
    const aspect = frameAspect(width, height, cards);
    svg = s("svg", {
      viewBox: `0 0 ${width} ${height}`,
      class: "photo-svg",
      style: `aspect-ratio: ${aspect}`,
      "data-testid": "photo",
      role: "group",
      "aria-label": "The photo with the cards found",
    });
    const image = s("image", { href: c.photo.image_url, x: 0, y: 0, width, height, preserveAspectRatio: "none" });
    // A photo the browser cannot show (HEIC outside Safari): the server's JPEG instead.
    image.addEventListener("error", () => image.setAttribute("href", c.photo.annotated_url), { once: true });
    // Tags over every frame: a smaller box's frame, drawn after a larger box, had crossed
    // out that box's tag ("Tempu|ra").
    svg.append(image, s("g", { class: "boxes" }), s("g", { class: "tags" }), s("g", { class: "drawing" }));
    app.photoCache = { id, svg };
    svg.addEventListener("pointerdown", (event) => startDrawing(event, svg));
    svg.addEventListener("pointermove", (event) => moveDrawing(event, svg));
    svg.addEventListener("pointerup", (event) => endDrawing(event, svg));
    svg.addEventListener("pointercancel", () => cancelDrawing(svg));
    svg.addEventListener("click", (event) => tapPhoto(event, svg));
    svg.addEventListener("keydown", (event) => arrowToBox(event, svg));
    svg.photoSize = { width, height };
    svg.aspect = aspect;
    svg.zoom = makeZoomable(svg, {
      width,
      height,
      aspect,
      opening: cards,
      changed: () => layoutTags(svg),
      canPan: () => !app.drawMode,
      asked: () =>
        collectionRegion(
          [...svg.querySelectorAll("g.box.check[data-xyxy]")].map((g) => ({ box: JSON.parse(g.dataset.xyxy) })),
        ),
    });
    // Tags are laid out in CSS px: again whenever the photo's size on screen changes.
    new ResizeObserver(() => layoutTags(svg)).observe(svg);
  }
  svg.classList.toggle("drawing-mode", Boolean(editable && app.drawMode));
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
  svg.setAttribute(
    "aria-label",
    editable ? "The photo with the cards found: the arrow keys move between its boxes" : "The photo with the cards found",
  );
  // The photo's one Tab stop: the box last focused, where it is still there.
  const current = things.find((thing) => thing.box.id === svg.current) ?? firstThing(things);
  const boxes = [...c.detections].sort((a, b) => area(b.box) - area(a.box)); // small on top
  const tags = [];
  group.replaceChildren(
    ...boxes.map((box) => {
      const [x1, y1, x2, y2] = box.box;
      const stack = partOf.get(box.id) || null;
      // A stack's wasabi strip is drawn as part of its stack: its colour, no tag.
      const strip = stack?.strip === box;
      const label = stack ? stack.label : box.label;
      const colour = BY_KEY[label]?.colour || "#fff";
      const name = boxName(label);
      const check = asks(box, stack);
      const uncounted = box.counted === false && !stack;
      const what = strip
        ? `The wasabi under the ${name}`
        : stack
          ? `${name} (one box, two cards)${check ? ", check it" : ""}`
          : `${boxName(box.label)}${box.counted === false ? (box.left_out ? " (left out as another player's)" : " (not counted)") : ""}${check ? ", check it" : ""}`;
      const thing = things.find((x) => x.box === box);
      const node = s(
        "g",
        {
          class: `box ${box.source}${box.detected_label ? " relabeled" : ""}${uncounted ? " uncounted" : ""}${strip ? " strip" : ""}${check && !strip ? " check" : ""}${app.chosen.has(box.id) ? " chosen" : ""}`,
          "data-box-id": box.id,
          "data-label": box.label,
          "data-stack": stack ? stack.label : null,
          "data-xyxy": thing ? JSON.stringify(thing.xyxy) : null,
          tabindex: editable && thing ? (thing === current ? 0 : -1) : null,
          role: editable && thing ? "button" : null,
          "aria-label": `${what}${editable && thing ? ": change or delete" : ""}`,
        },
        s("rect", {
          x: x1,
          y: y1,
          width: x2 - x1,
          height: y2 - y1,
          class: "frame",
          stroke: colour,
        }),
      );
      if (!strip) {
        const names = tagNames(label).map((n) => (check ? `${n} ?` : n));
        tags.push(
          s(
            "g",
            {
              class: `tag${uncounted ? " uncounted" : ""}${check ? " check" : ""}`,
              "data-box-id": box.id,
              "data-names": JSON.stringify(names),
            },
            s("rect", { fill: colour }),
            s("text", { class: "tag-text" }, names[0]),
          ),
        );
      }
      if (editable && thing) {
        // On the box, not the photo: Chromium gives an SVG element with focus listeners a
        // Tab stop of its own, where neither the arrows nor Enter did anything.
        node.addEventListener("focus", () => focusBox(node, svg));
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
  svg.querySelector("g.tags").replaceChildren(...tags);
  requestAnimationFrame(() => layoutTags(svg));
  return svg;
}

// An arrow key on a box moves the focus to the next box that way; the page does not
// scroll under it.
function arrowToBox(event, svg) {
  const node = event.target.closest?.("g.box[tabindex]");
  if (!node || !isArrow(event.key)) return;
  event.preventDefault();
  const from = svg.things.find((thing) => thing.box.id === Number(node.dataset.boxId));
  const to = from && neighbour(svg.things, from, event.key);
  if (to) svg.querySelector(`g.box[data-box-id="${to.box.id}"]`).focus({ preventScroll: true });
}

// A box given the focus (by Tab, an arrow, a tap, or its screen built anew) becomes the
// photo's Tab stop; from the keyboard, it is brought into view: into the zoom, and
// between the two bars (a tap's box is in view, and the page stays under the finger).
function focusBox(node, svg) {
  svg.current = Number(node.dataset.boxId);
  for (const other of svg.querySelectorAll("g.box[tabindex]")) other.tabIndex = other === node ? 0 : -1;
  if (!node.matches(":focus-visible")) return;
  svg.zoom.reveal(JSON.parse(node.dataset.xyxy));
  bringBetweenBars(framesOf(svg, [svg.current]));
}

// The arrow keys in a sheet's grid of choices move to the choice that way on screen, as
// on the photo (only Tab had moved there).
function arrowAmongButtons(event) {
  if (!isArrow(event.key)) return;
  const choices = [...event.currentTarget.querySelectorAll("button")].map((node) => {
    const { left, top, right, bottom } = node.getBoundingClientRect();
    return { node, xyxy: [left, top, right, bottom] };
  });
  const from = choices.find((choice) => choice.node === document.activeElement);
  if (!from) return;
  event.preventDefault();
  neighbour(choices, from, event.key)?.node.focus();
}

// Whether a warning points at this box or at its stack's boxes: its tag asks, with "?".
function asks(box, stack) {
  return Boolean(box.check || stack?.top?.check || stack?.strip?.check);
}

// The cards the photo marks "?" (as its tags do): a stack one card, asked about where any
// of its boxes is.
export function markedCards(c) {
  const { partOf } = findStacks(c.detections);
  return c.detections.filter((box) => partOf.get(box.id)?.strip !== box && asks(box, partOf.get(box.id)))
    .length;
}

// The warnings that point at a box (or its stack's boxes), in words: its sheet repeats
// them, so that a player who taps a "?" is told what to check.
function askedOf(box, stack) {
  const texts = [box, stack?.top, stack?.strip].flatMap((b) => b?.asks ?? []);
  return [...new Set(texts)];
}

// A tag's names, longest first: the card's short name, then where that one is crowded
// out, its first word, where that still says the card ("Chopsticks", not "Maki" for
// "Maki 2" nor "Salmon" for a salmon on its wasabi).
function tagNames(label) {
  const name = tagName(label);
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
      { class: "label-grid chooser", "data-testid": "chooser", onkeydown: arrowAmongButtons },
      placed(found).map(({ thing, place }) =>
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
          place ? `, ${place}` : "",
          asks(thing.box, thing.stack) ? " ?" : "",
        ),
      ),
    ),
    h("div", { class: "actions" }, h("button", { class: "button", onclick: () => closeSheet() }, "Cancel")),
    { room },
  );
}

// The things under a finger in the chooser's order, each with where it lies among those
// that share its name ("the top one", "the second from the left one"): three "Tempura"
// buttons otherwise said nothing of which was which. Names come largest first, as the
// finger's candidates do; things of one name one after another, in their order on the
// photo (top to bottom in a column, left to right in a row).
const ORDINALS = ["second", "third", "fourth", "fifth", "sixth"];

function placed(found) {
  const byName = new Map();
  for (const thing of found) {
    const name = `${thing.label}${thing.stack ? "+" : ""}`;
    byName.set(name, [...(byName.get(name) ?? []), thing]);
  }
  return [...byName.values()].flatMap((same) => {
    if (same.length < 2) return [{ thing: same[0], place: null }];
    const centre = (thing, k) => (thing.box.box[k] + thing.box.box[k + 2]) / 2;
    const spread = (k) => Math.max(...same.map((t) => centre(t, k))) - Math.min(...same.map((t) => centre(t, k)));
    const k = spread(1) >= spread(0) ? 1 : 0; // a column's cards differ top to bottom
    const [first, middle, last] = k === 1 ? ["top", "middle", "bottom"] : ["left", "middle", "right"];
    const order = [...same].sort((a, b) => centre(a, k) - centre(b, k));
    return order.map((thing, i) => {
      const word =
        i === 0
          ? first
          : i === order.length - 1
            ? last
            : order.length === 3
              ? middle
              : `${ORDINALS[i - 1] ?? `number ${i + 1}`} from the ${first}`;
      return { thing, place: `the ${word} one` };
    });
  });
}

// The boxes as a list, each stack one line: a way to every box where the photo is crowded.
function boxList(c, editable) {
  if (!c.detections.length) return h("p", { class: "hint" }, "No cards were found in this photo.");
  const { stacks, partOf } = findStacks(c.detections);
  const things = c.detections.filter((box) => partOf.get(box.id)?.strip !== box);
  const cards = detectedCards(c.detected_tally);
  const notCounted = things.filter((box) => box.counted === false && !partOf.has(box.id));
  const leftOut = notCounted.filter((box) => box.left_out).length;
  const uncounted = notCounted.length - leftOut;
  const why = [];
  if (stacks.length) why.push(`a nigiri on a wasabi is one box and two cards`);
  if (uncounted) why.push(`${plural(uncounted, "box", "boxes")} not counted (too unsure, or a second box on one card)`);
  if (leftOut) why.push(`${plural(leftOut, "box", "boxes")} left out as another player's`);
  // Counts set by hand add cards no box shows: said, so the list's count and the
  // counters' agree.
  const byHand = c.cards - cards;
  const summary =
    `${plural(things.length, "box", "boxes")}, ${plural(cards, "card")}` +
    (byHand ? `; ${Math.abs(byHand)} ${byHand > 0 ? "more" : "fewer"} set by hand` : "");
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
            box.source === "reviewer"
              ? " (added)"
              : box.detected_label
                ? " (set by you)" // its confidence was the detector's word for another card
                : ` ${Math.round(box.confidence * 100)}%`,
            box.counted === false && !stack ? (box.left_out ? " · left out" : " · not counted") : "",
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

function labelGrid(current, choose, extra = null) {
  return h(
    "div",
    { class: "label-grid", onkeydown: arrowAmongButtons },
    ...CATEGORIES.map((c) =>
      h(
        "button",
        {
          class: `button label-choice${c.key === current ? " current" : ""}`,
          "aria-pressed": String(c.key === current),
          // The sheet opens on the box's own card: a keyboard had started at Tempura.
          autofocus: c.key === current,
          "data-label": c.key,
          onclick: () => choose(c.key),
        },
        h("span", { class: "dot", style: `background:${c.colour}` }),
        c.name,
      ),
    ),
    extra,
  );
}

// The next player's card caught in the photo: left out of the tally, kept on the photo
// (the learning loop learns it as a card), a stack's two boxes together.
function leaveOutButton(box, stack) {
  return h(
    "button",
    {
      class: "button label-choice other-player",
      "data-testid": "leave-out",
      // Short, on one line: a longer choice wrapped, and the sheet beside the photo on a
      // laptop no longer held every choice without scrolling.
      "aria-label": `Another player's ${stack ? "stack" : "card"}: leave it out`,
      onclick: () => {
        closeSheet();
        correct({ action: "leave_out", detection: box.id });
      },
    },
    "Another player's",
  );
}

// What a tapped box is and what it could be. A stack's sheet shows the stack as one
// thing, its relabel acting on the nigiri's box; its wasabi strip can go on its own.
function openBoxSheet(box, stack = null) {
  const label = stack ? stack.label : box.label;
  const asked = asks(box, stack);
  // Its own card, chosen for a box not counted or asked about, says the reading is right.
  const vouches = (!stack && box.counted === false) || asked;
  const said = box.detected_label
    ? `The detector said ${boxName(box.detected_label)}.`
    : box.source === "reviewer"
      ? "Added by hand."
      : `Found by the detector (${Math.round(box.confidence * 100)}% sure).`;
  // What to tap, in one sentence: "Tap its card if it is right. Tap what it really is:"
  // had read as two orders.
  const counted = stack
    ? " One box on the photo, two cards: a nigiri on a wasabi."
    : box.left_out
      ? " It is not counted: it was left out as another player's card. If it is this player's, tap its card to count it, or what it really is:"
      : box.counted === false
        ? " It is not counted: too unsure, or a second box on the same card. Tap its card to count it, or what it really is:"
        : asked
          ? " If it is right, tap its card; if not, what it really is:"
          : " Tap what it really is:";
  const choose = asked ? "If the stack is right, tap it below; if not, what it really is:" : "Or tap what it really is:";
  const strip = stack?.strip;
  const room = markChosen([box, strip].filter(Boolean));
  openSheet(
    h("h2", { "data-testid": "box-sheet-title" }, `${stack ? "This stack" : "This card"}: ${boxName(label)}`),
    asked
      ? h(
          "ul",
          { class: "problems", "data-testid": "box-asks" },
          askedOf(box, stack).map((text) => h("li", { class: "warning" }, inWords(text))),
        )
      : null,
    h("p", { class: "hint" }, said, counted),
    // A stack's likeliest mend comes first, above the fold of a sheet kept under the
    // box: below the twelve cards it had to be scrolled to.
    stack
      ? h(
          "div",
          { class: "actions stack-actions" },
          h(
            "button",
            {
              class: "button",
              "data-testid": "delete-strip",
              onclick: () => {
                closeSheet();
                correct(unstacking(stack));
              },
            },
            "No wasabi under it",
          ),
        )
      : null,
    stack ? h("p", { class: "hint" }, choose) : null,
    labelGrid(label, (chosen) => {
      closeSheet();
      if (chosen === label && !vouches) return;
      // A stack read as its own nigiri is that nigiri with no wasabi under it.
      const plain = stack && chosen === nigiriOf(stack);
      correct(plain ? unstacking(stack) : { action: "relabel", detection: box.id, label: chosen });
    }, box.left_out ? null : leaveOutButton(box, stack)),
    // Kept at the sheet's foot (style.css): on a small phone the cards' grid had pushed
    // Delete and Cancel below the screen, nothing saying the sheet scrolled.
    h(
      "div",
      { class: "actions sheet-foot" },
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
      h("button", { class: "button", onclick: () => closeSheet() }, "Cancel"),
    ),
    { room },
  );
}

// The box being changed stays in view above the sheet, marked, so that one sees which
// box the finger hit.
function markChosen(boxes) {
  const svg = app.photoCache.svg;
  app.chosen = new Set(boxes.map((b) => b.id));
  for (const node of svg?.querySelectorAll("g.box") || []) {
    node.classList.toggle("chosen", app.chosen.has(Number(node.dataset.boxId)));
  }
  return keepInView(framesOf(svg, boxes.map((b) => b.id)), collectionRegion(boxes));
}

// Where a box's sheet opens beside the photo, over the counters (style.css).
const SHEET_BESIDE = matchMedia("(min-width: 900px)");

// A region of the photo (the boxes being changed, a box just drawn) in view above a
// sheet: the zoom shows it, the page scrolls it to just under the top bar, and the
// sheet takes the height below it (never less than half the screen; it scrolls inside).
// Gives the sheet's height (openSheet's `room`), or null where there is no photo.
function keepInView(frames, region) {
  const svg = app.photoCache.svg;
  if (svg?.zoom && region) svg.zoom.reveal(region);
  if (!frames.length || !svg?.isConnected) return null;
  // Closing the sheet scrolls back (sheet.js): the page had stayed with the box at its
  // top, the photo and the hand check above the screen.
  app.scrolledFor ??= { y: window.scrollY, href: location.href };
  if (SHEET_BESIDE.matches) {
    // The sheet opens beside the photo: the page had scrolled the box to the top anyway,
    // the photo jumping 270 px under the pointer. It moves only for a box out of sight.
    bringBetweenBars(frames);
    return innerHeight;
  }
  window.scrollBy({ top: extent(frames).top - betweenBars().top - 12, behavior: "instant" });
  return Math.max(innerHeight / 2, innerHeight - extent(frames).bottom - 12);
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
  // As a box being changed: the drawn box stays in view above the sheet, marked.
  app.drawing.rect.classList.add("chosen");
  const room = keepInView([app.drawing.rect], box);
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
    { room },
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
  // Where nothing can change (a viewer, a recorded round), the hand's cards alone, without
  // 34 greyed-out buttons around twelve empty rows.
  const shown = editable ? CATEGORIES : CATEGORIES.filter((cat) => c.tally[cat.key] > 0);
  if (!shown.length) section.append(h("p", { class: "hint" }, "No cards counted."));
  // Each group of counters in a block of its own, kept whole where they stand in columns.
  let group = null;
  let block = null;
  for (const cat of shown) {
    if (cat.group !== group) {
      group = cat.group;
      block = h("div", { class: "counter-group" }, h("h3", {}, group));
      section.append(block);
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
    block.append(
      h(
        "div",
        {
          class: `counter${count ? " some" : ""}${byHand ? " hand" : ""}${editable ? "" : " fixed"}`,
          "data-testid": `counter-${cat.key}`,
        },
        h(
          "span",
          { class: "counter-name" },
          h("span", { class: "dot", style: `background:${cat.colour}` }),
          h("span", {}, cat.name, note ? h("br") : null, note),
        ),
        editable ? step(cat, -1, count === 0) : null,
        h("output", { class: "count", "data-testid": `count-${cat.key}`, "aria-live": "polite" }, count),
        editable ? step(cat, 1, false) : null,
      ),
    );
  }
  const t = c.tally;
  const icons = t.maki_1 + 2 * t.maki_2 + 3 * t.maki_3;
  section.append(h("p", { class: "hint" }, `Maki roll icons: ${icons}. A nigiri on a wasabi counts once, in its “on wasabi” line.`));
  return section;
}

// A counter's − or +.
function step(cat, delta, disabled) {
  return h(
    "button",
    {
      class: "step",
      disabled,
      "aria-label": `${delta < 0 ? "One fewer" : "One more"} ${cat.name}`,
      "data-testid": `${delta < 0 ? "minus" : "plus"}-${cat.key}`,
      onclick: () => changeCount(cat.key, delta),
    },
    delta < 0 ? "−" : "+",
  );
}

function confirmBar(c) {
  return h(
    "div",
    { class: "confirm-bar" },
    h(
      "span",
      { class: `bar-check ${handStanding(c)}`, "data-testid": "bar-check" },
      `${c.cards}/${c.hand_size}`,
      // Unseen on a phone (style.css): beside Undo it cut "Confirm Ana's cards" short.
      h("span", { class: "unit" }, " cards"),
    ),
    // In the bar, always in reach: by the photo it had lain 1,000 px above the last
    // counters on a phone. Not on confirmed cards: beside Done it took back a change
    // made before the confirmation, and the confirmation with it, unsaid.
    c.status === "confirmed"
      ? null
      : h(
          "button",
          { class: "button undo", disabled: !c.can_undo, "data-testid": "undo", onclick: () => undo() },
          "Undo",
        ),
    c.status === "confirmed"
      ? h(
          "button",
          {
            class: "button primary",
            "data-testid": "done",
            "aria-label": "Done: confirmed, back to the round",
            onclick: () => go({ game: app.game.id, round: c.round }),
          },
          // One line ("Confirmed" is said above the photo): "Confirmed ✓ Back to the round"
          // took two lines at 390 px and three at 320, over the photo's bottom.
          "Done",
          h("span", { class: "whose" }, "· back to the round"),
        )
      : h(
          "button",
          {
            class: "button primary",
            disabled: c.status === "empty",
            "data-testid": "confirm",
            "aria-label": `Confirm ${c.player}'s cards`,
            onclick: () => confirmTally(),
          },
          // At 320 px only "Confirm": on two lines the bar hid the photo's bottom.
          "Confirm",
          h("span", { class: "whose" }, ` ${c.player}'s cards`),
        ),
  );
}

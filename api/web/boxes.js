// The boxes on the review photo as a finger and a keyboard meet them: where each box's
// tag goes (no two overlapping, none outside the photo in view), which boxes a tap means,
// and which box an arrow key goes to (a sheet's grid of choices too). A
// photo's boxes can be 17 px tall with centres 16 px apart on a phone; a fingertip
// covers two, so every box takes taps over at least TARGET x TARGET CSS px, and a tap
// where targets overlap is answered with the candidates, largest first.

export const TARGET = 44; // CSS px: the least a finger can hit (WCAG 2.5.5)
const FONT = 12; // CSS px of a tag's text, whatever the photo's size or zoom

// Photo units per CSS px as the photo is shown now (0 when it is not shown).
export function unitsPerPixel(svg) {
  const width = svg.getBoundingClientRect().width;
  return width ? svg.viewBox.baseVal.width / width : 0;
}

// The rectangle in photo units a box takes taps over: the box (with its wasabi strip,
// for a stack), grown about its centre to at least TARGET CSS px each way.
export function target(xyxy, px) {
  const [x1, y1, x2, y2] = xyxy;
  const least = TARGET * px;
  const w = Math.max(x2 - x1, least);
  const h = Math.max(y2 - y1, least);
  const cx = (x1 + x2) / 2;
  const cy = (y1 + y2) / 2;
  return [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2];
}

function inside([x1, y1, x2, y2], point) {
  return point.x >= x1 && point.x <= x2 && point.y >= y1 && point.y <= y2;
}

export function area([x1, y1, x2, y2]) {
  return (x2 - x1) * (y2 - y1);
}

function centre([x1, y1, x2, y2]) {
  return [(x1 + x2) / 2, (y1 + y2) / 2];
}

// The things (each {xyxy, ...}) whose target holds `point`, largest first.
export function thingsAt(things, point, px) {
  return things
    .filter((thing) => inside(target(thing.xyxy, px), point))
    .sort((a, b) => area(b.xyxy) - area(a.xyxy));
}

// The keyboard among the boxes: the photo is one Tab stop and the arrow keys move from
// box to box (Up and Down along a column, Left and Right across), so that twenty boxes
// are not twenty Tabs between the photo and the counters.
const ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

export function isArrow(key) {
  return Object.hasOwn(ARROWS, key);
}

// The thing an arrow `key` moves to from `from`: the nearest whose centre lies that way
// (within about 60 degrees of it), one straight ahead before one off to the side; null
// where none does.
export function neighbour(things, from, key) {
  const [dx, dy] = ARROWS[key];
  const [fx, fy] = centre(from.xyxy);
  let best = null;
  let least = Infinity;
  for (const thing of things) {
    const [x, y] = centre(thing.xyxy);
    const along = (x - fx) * dx + (y - fy) * dy;
    const aside = Math.abs((x - fx) * dy - (y - fy) * dx);
    if (thing === from || along <= 0 || aside > 2 * along) continue;
    const cost = along + 2 * aside;
    if (cost < least) [best, least] = [thing, cost];
  }
  return best;
}

// Where the photo's Tab stop starts: the thing nearest its top-left corner.
export function firstThing(things) {
  const reach = (thing) => centre(thing.xyxy)[0] + centre(thing.xyxy)[1];
  return things.reduce((best, thing) => (best === null || reach(thing) < reach(best) ? thing : best), null);
}

function overlaps(a, b) {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}

// Which tags are placed first where room is short: one asking "?", then a maki's (its
// count is in icons too small to see at this scale, and the three maki's frames are
// alike reds: a covered maki's tag had been crowded out in a tight column), then the
// rest, whose frames' colours tell their kinds apart.
function tagRank(tag, box) {
  if (tag.classList.contains("check")) return 0;
  return box.dataset.label?.startsWith("maki_") ? 1 : 2;
}

// Places each box's tag (g.tags > g.tag, holding a rect and a text, its names longest
// first in data-names; its box's corners in data-xyxy of the g.box of its data-box-id)
// at the first spot by its box where it overlaps no tag placed before and lies inside the
// photo in view: inside its top-right corner, top-left, bottom-left, just above, just
// below, beside it right or left; with a shorter name where the long one fits nowhere;
// hidden where none fits or its box is out of view (the list still names it). By rank
// (tagRank), then from the top.
export function layoutTags(svg) {
  const px = unitsPerPixel(svg);
  if (!px) return;
  // The photo in view: the view, less any dark band beside an upright photo (zoom.js).
  const shown = svg.viewBox.baseVal;
  const photo = svg.photoSize ?? shown;
  const x0 = Math.max(shown.x, 0);
  const y0 = Math.max(shown.y, 0);
  const view = {
    x: x0,
    y: y0,
    width: Math.min(shown.x + shown.width, photo.width) - x0,
    height: Math.min(shown.y + shown.height, photo.height) - y0,
  };
  const font = FONT * px;
  const pad = 3 * px;
  const height = font * 1.35;
  const gap = px;
  const placed = [];
  const boxOf = (tag) => svg.querySelector(`g.box[data-box-id="${tag.dataset.boxId}"]`);
  const tags = [...svg.querySelectorAll("g.tag[data-names]")]
    .map((tag) => [tag, boxOf(tag)])
    .map(([tag, box]) => ({ tag, xyxy: JSON.parse(box.dataset.xyxy), rank: tagRank(tag, box) }))
    .sort((a, b) => a.rank - b.rank || a.xyxy[1] - b.xyxy[1] || a.xyxy[0] - b.xyxy[0]);
  const inView = [view.x, view.y, view.x + view.width, view.y + view.height];
  for (const { tag, xyxy } of tags) {
    const [x1, y1, x2, y2] = xyxy;
    const rect = tag.querySelector("rect");
    const text = tag.querySelector("text");
    text.setAttribute("font-size", font);
    let spot = null;
    // A box out of view has no tag: kept inside the view, its tag had lain on another card.
    const names = overlaps(xyxy, inView) ? JSON.parse(tag.dataset.names) : [];
    for (const name of names) {
      text.textContent = name;
      const width = text.getComputedTextLength() + 2 * pad;
      if (width > view.width || height > view.height) continue;
      // Inside the top-right corner first: the top-left holds the card's icon, which
      // tells the look-alikes apart (a column's covered cards show little else).
      const spots = [
        [Math.max(x1, x2 - width), y1],
        [x1, y1],
        [x1, y2 - height],
        [x1, y1 - height - gap],
        [x1, y2 + gap],
        [x2 + gap, y1],
        [x1 - width - gap, y1],
      ];
      for (const [sx, sy] of spots) {
        const x = Math.min(Math.max(sx, view.x), view.x + view.width - width);
        const y = Math.min(Math.max(sy, view.y), view.y + view.height - height);
        const box = [x, y, x + width, y + height];
        const grown = [x - gap, y - gap, x + width + gap, y + height + gap];
        if (!placed.some((other) => overlaps(grown, other))) {
          spot = { box, x, y, width };
          break;
        }
      }
      if (spot) break;
    }
    tag.style.display = spot ? "" : "none";
    if (!spot) continue;
    placed.push(spot.box);
    rect.setAttribute("x", spot.x);
    rect.setAttribute("y", spot.y);
    rect.setAttribute("width", spot.width);
    rect.setAttribute("height", height);
    text.setAttribute("x", spot.x + pad);
    text.setAttribute("y", spot.y + font * 1.02);
  }
}

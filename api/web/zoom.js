// Zooming and panning the review photo by its SVG viewBox: it opens on the collection
// (the cards' region with a margin: a collection fills little of a phone's photo, so the
// whole table made every box tiny), and zooms with two fingers, a double tap where no box
// is, and the − / + buttons; one finger pans it once zoomed in (on the whole photo it
// scrolls the page, as anywhere else).

const MARGIN = 0.12; // of the cards' region, each side
const MAX_ZOOM = 8; // the closest view: an eighth of the photo's long side
const STEP = 1.6; // one press of + or −
const SHOWN = 0.6; // of the frame, the cards a warning's Show brings up
const DOUBLE_TAP_MS = 320;
const DOUBLE_TAP_PX = 30;
const MOVED_PX = 8; // a finger that moved more than this panned: its tap is no tap

// The shape (width / height) of the photo's frame on the page: the shape of the cards'
// `region` (null: none), between square and the photo's own. A phone's upright photo in
// a frame of its shape reached under the Confirm bar on the first screen, its cards
// (often low in it) hidden there: its frame is square, the whole photo shown with dark
// bands at the sides. A landscape photo of three columns had opened in its own wide
// frame, the cards a third of the frame's width, 30 px wide on a phone: the frame takes
// the cards' shape, as tall as it is wide, the whole photo shown with bands above and
// below.
export function frameAspect(width, height, region = null) {
  const photo = Math.max(width / height, 1);
  if (!region) return photo;
  const [x1, y1, x2, y2] = region;
  return Math.min(photo, Math.max((x2 - x1) / Math.max(y2 - y1, 1), 1));
}

// The photo (width x height px) as its frame (of `aspect`) sees it: `whole`, the view of
// all of it (wider or taller than the photo where their shapes differ), and clamp(view),
// any view kept between that and the closest (MAX_ZOOM), its centre kept, then moved
// inside the photo (centred on it where wider or taller).
function framing(width, height, aspect) {
  const w = Math.max(width, height * aspect);
  const h = w / aspect;
  const whole = { x: (width - w) / 2, y: (height - h) / 2, w, h };
  const clamp = (view) => {
    let { w, h } = view;
    const grow = Math.max(1, Math.max(width, height) / MAX_ZOOM / Math.max(w, h));
    w *= grow;
    h *= grow;
    const shrink = Math.min(1, whole.w / w, whole.h / h);
    w *= shrink;
    h *= shrink;
    const along = (start, size, span) =>
      size >= span ? (span - size) / 2 : Math.min(Math.max(start, 0), span - size);
    const x = along(view.x + (view.w - w) / 2, w, width);
    const y = along(view.y + (view.h - h) / 2, h, height);
    return { x, y, w, h };
  };
  return { whole, clamp };
}

// The view (x, y, w, h in photo px) of `region` [x1, y1, x2, y2] with a margin, at the
// frame's `aspect`, kept by `clamp`.
function fit(region, aspect, clamp) {
  const [x1, y1, x2, y2] = region;
  let w = (x2 - x1) * (1 + 2 * MARGIN);
  let h = (y2 - y1) * (1 + 2 * MARGIN);
  if (w / h < aspect) w = h * aspect;
  else h = w / aspect;
  return clamp({ x: (x1 + x2) / 2 - w / 2, y: (y1 + y2) / 2 - h / 2, w, h });
}

// The collection's region: every box's union (null when there is none).
export function collectionRegion(boxes) {
  if (!boxes.length) return null;
  return [
    Math.min(...boxes.map((b) => b.box[0])),
    Math.min(...boxes.map((b) => b.box[1])),
    Math.max(...boxes.map((b) => b.box[2])),
    Math.max(...boxes.map((b) => b.box[3])),
  ];
}

// Makes `svg` (a photo of width x height px, in a frame of `aspect`) zoomable; `opening`
// is the region it opens on, `changed()` runs after each change of view (the tags are
// laid out again), `canPan()` says whether gestures are the zoom's (not while a box is
// being drawn), and `asked()` gives the region of the cards a warning asks about (or
// null), which + goes toward first. Returns the controls: reveal(region), show(region),
// zoomBy(factor), bareTap(event), zoomed(), whole(), collection(), view().
export function makeZoomable(svg, { width, height, aspect, opening, changed, canPan, asked = () => null }) {
  const { whole, clamp } = framing(width, height, aspect);
  const start = opening ? fit(opening, aspect, clamp) : whole;
  let view = start;
  const set = (next) => {
    view = clamp(next);
    svg.setAttribute("viewBox", `${view.x} ${view.y} ${view.w} ${view.h}`);
    svg.classList.toggle("zoomed", zoomed());
    changed();
  };
  const zoomed = () => view.w < whole.w - 0.5;
  // A view `w` wide, of the frame's shape, centred on `region` [x1, y1, x2, y2].
  const centreOn = ([x1, y1, x2, y2], w) => {
    const h = (w * view.h) / view.w;
    set({ x: (x1 + x2) / 2 - w / 2, y: (y1 + y2) / 2 - h / 2, w, h });
  };
  // Photo px per CSS px, and a screen point in photo px.
  const scale = () => view.w / (svg.getBoundingClientRect().width || 1);
  const toPhoto = (clientX, clientY) => {
    const r = svg.getBoundingClientRect();
    return { x: view.x + (clientX - r.left) * scale(), y: view.y + (clientY - r.top) * scale() };
  };
  // Zoom by `factor` (>1 closer) keeping the photo point under (clientX, clientY) there.
  const zoomAt = (factor, clientX, clientY) => {
    const p = toPhoto(clientX, clientY);
    const w = view.w / factor;
    const h = view.h / factor;
    set({ x: p.x - (p.x - view.x) / factor, y: p.y - (p.y - view.y) / factor, w, h });
  };
  const zoomBy = (factor) => {
    // + goes toward the cards a warning asks about where they are in sight, else toward
    // the cards in sight, not the table at the view's middle: the view of the cards, or
    // of the whole photo, may hold them off its middle (kept inside the photo at its
    // edge), and + had pushed them out of sight.
    const marked = factor > 1 ? asked() : null;
    const cards =
      (marked && inSight(marked)) || (factor > 1 && opening ? inSight(opening) : null);
    if (cards) {
      centreOn(cards, view.w / factor);
      return;
    }
    const r = svg.getBoundingClientRect();
    zoomAt(factor, r.left + r.width / 2, r.top + r.height / 2);
  };
  // The part of a region (x1, y1, x2, y2) the view shows; null where it shows none.
  const inSight = ([x1, y1, x2, y2]) => {
    const part = [Math.max(x1, view.x), Math.max(y1, view.y), Math.min(x2, view.x + view.w), Math.min(y2, view.y + view.h)];
    return part[0] < part[2] && part[1] < part[3] ? part : null;
  };

  // Gestures, by pointer events: one finger pans a zoomed photo, two pinch.
  const pointers = new Map();
  let gesture = null;
  let lastTap = null;
  svg.addEventListener("pointerdown", (event) => {
    // A first finger starts a new gesture: a finger whose lift was never told is gone,
    // and a pan before it no longer stops a tap (a drag is followed by no click).
    if (event.isPrimary) {
      pointers.clear();
      delete svg.dataset.panned;
    }
    if (!canPan()) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    svg.setPointerCapture?.(event.pointerId);
    gesture = { view, points: new Map(pointers), moved: false };
  });
  svg.addEventListener("pointermove", (event) => {
    if (!gesture || !pointers.has(event.pointerId)) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const [a, b] = [...pointers.values()];
    const [a0, b0] = [...gesture.points.values()];
    if (!a0) return;
    if (Math.hypot(a.x - a0.x, a.y - a0.y) > MOVED_PX || (b && b0)) gesture.moved = true;
    if (!gesture.moved) return;
    const k = gesture.view.w / (svg.getBoundingClientRect().width || 1);
    if (b && b0) {
      // Pinch: the photo point under the fingers' first midpoint follows their midpoint.
      const factor = Math.hypot(a.x - b.x, a.y - b.y) / Math.max(Math.hypot(a0.x - b0.x, a0.y - b0.y), 1);
      const r = svg.getBoundingClientRect();
      const m0 = { x: (a0.x + b0.x) / 2 - r.left, y: (a0.y + b0.y) / 2 - r.top };
      const m = { x: (a.x + b.x) / 2 - r.left, y: (a.y + b.y) / 2 - r.top };
      const p = { x: gesture.view.x + m0.x * k, y: gesture.view.y + m0.y * k };
      const w = gesture.view.w / factor;
      const h = gesture.view.h / factor;
      set({ x: p.x - m.x * (k / factor), y: p.y - m.y * (k / factor), w, h });
      event.preventDefault();
    } else if (zoomed()) {
      set({ ...gesture.view, x: gesture.view.x - (a.x - a0.x) * k, y: gesture.view.y - (a.y - a0.y) * k });
      event.preventDefault();
    }
  });
  const up = (event) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.delete(event.pointerId);
    if (gesture?.moved) svg.dataset.panned = "yes"; // the click that follows is no tap
    if (pointers.size === 0) gesture = null;
    else gesture = { view, points: new Map(pointers), moved: true };
  };
  svg.addEventListener("pointerup", up);
  svg.addEventListener("pointercancel", up);

  // A tap where no box is: a second one soon after, close by, zooms in there (or back
  // to the collection from the closest view). Returns true when it zoomed.
  const bareTap = (event) => {
    const now = event.timeStamp;
    const near = lastTap && Math.hypot(event.clientX - lastTap.x, event.clientY - lastTap.y) < DOUBLE_TAP_PX;
    if (near && now - lastTap.at < DOUBLE_TAP_MS) {
      lastTap = null;
      if (Math.max(view.w, view.h) <= Math.max(width, height) / MAX_ZOOM + 1e-6) set(start);
      else zoomAt(2, event.clientX, event.clientY);
      return true;
    }
    lastTap = { x: event.clientX, y: event.clientY, at: now };
    return false;
  };

  // Brings a box [x1, y1, x2, y2] into view (the box being changed), zoom kept if it fits.
  const reveal = ([x1, y1, x2, y2]) => {
    if (x1 >= view.x && y1 >= view.y && x2 <= view.x + view.w && y2 <= view.y + view.h) return;
    // Zoomed out as far as the region needs each way: a tall card had been cut by a view
    // only made wide enough for it.
    centreOn([x1, y1, x2, y2], Math.max(view.w, (x2 - x1) * 1.2, ((y2 - y1) * 1.2 * view.w) / view.h));
  };

  // Show's view of the cards a warning asks about: closer, so that their icons can be
  // read (a card about SHOWN of the frame: on the collection's view it had stayed some
  // 50 px wide on a phone), never farther; where the view is as close already, panned.
  const show = (region) => {
    const [x1, y1, x2, y2] = region;
    const w = Math.max((x2 - x1) / SHOWN, ((y2 - y1) / SHOWN) * (view.w / view.h), 1);
    if (w >= view.w) reveal(region);
    else centreOn(region, w);
  };

  set(view);
  return {
    reveal,
    show,
    zoomBy,
    bareTap,
    zoomed,
    whole: () => set(whole),
    collection: () => set(start),
    view: () => ({ ...view }),
  };
}

// Which boxes on a photo are one stack (a nigiri lying on its wasabi), so that the page
// shows it as one thing: "Salmon on wasabi", one box and two cards, its wasabi strip part
// of it rather than a wasabi of its own. The server decides what is counted; this only
// finds, for the stacks its tally holds, the boxes they are made of.

const NIGIRI = ["egg", "salmon", "squid"];
const STACK_OF = Object.fromEntries(NIGIRI.map((n) => [`${n}_on_wasabi`, n]));

export function isStackLabel(label) {
  return label in STACK_OF;
}

// A gap between two boxes, in units of the smaller one's short side: 0 when they touch.
function gap(a, b) {
  const [ax1, ay1, ax2, ay2] = a.box;
  const [bx1, by1, bx2, by2] = b.box;
  const dx = Math.max(0, bx1 - ax2, ax1 - bx2);
  const dy = Math.max(0, by1 - ay2, ay1 - by2);
  const side = Math.min(ax2 - ax1, ay2 - ay1, bx2 - bx1, by2 - by1) || 1;
  return Math.hypot(dx, dy) / side;
}

// How well a wasabi box sits as the strip of a nigiri box: it lies above (or beside) the
// nigiri's top and overlaps it across; lower is better, Infinity is no fit.
function stripFit(wasabi, nigiri) {
  const [wx1, wy1, wx2, wy2] = wasabi.box;
  const [nx1, ny1, nx2, ny2] = nigiri.box;
  const across = Math.min(wx2, nx2) - Math.max(wx1, nx1);
  const down = Math.min(wy2, ny2) - Math.max(wy1, ny1);
  const near = gap(wasabi, nigiri);
  if (near > 0.25) return Infinity;
  const aboveOrBeside = wy1 <= ny1 + 0.1 * (ny2 - ny1) || wx1 <= nx1 + 0.1 * (nx2 - nx1);
  if (!aboveOrBeside || (across <= 0 && down <= 0)) return Infinity;
  return near + Math.abs(wy1 - ny1) / Math.max(ny2 - ny1, 1);
}

// Pairs (wasabi, nigiri) by best fit, each box used once, at most `limit[kind]` of a kind.
function pairUp(wasabis, nigiris, limit = null) {
  const options = [];
  for (const w of wasabis) {
    for (const n of nigiris) {
      const fit = stripFit(w, n);
      if (fit < Infinity) options.push({ fit, w, n });
    }
  }
  options.sort((a, b) => a.fit - b.fit);
  const used = new Set();
  const left = limit ? { ...limit } : null;
  const pairs = [];
  for (const { w, n } of options) {
    if (used.has(w.id) || used.has(n.id)) continue;
    const kind = n.label;
    if (left && !(left[kind] > 0)) continue;
    if (left) left[kind] -= 1;
    used.add(w.id);
    used.add(n.id);
    pairs.push({ w, n });
  }
  return pairs;
}

// The stacks among `boxes` (the collection's detections): [{ top, strip, label }] with
// `top` the nigiri's box (or the box labelled as a whole stack), `strip` the wasabi box
// under it (null where none was found), `label` the stack's tally key; and `partOf`, a
// Map from each of their box ids to its stack.
//  - a box labelled "<nigiri>_on_wasabi" is a stack; a wasabi the tally does not count,
//    touching it, is its strip;
//  - a counted wasabi and a counted plain nigiri are one where the tally (`detected`,
//    read from the boxes) counts more stacks of that nigiri than boxes labelled so: as
//    many as it counts, the best-fitting pairs first.
export function findStacks(boxes, detected) {
  const stacks = [];
  const labelled = boxes.filter((b) => b.counted !== false && isStackLabel(b.label));
  const loose = boxes.filter((b) => b.counted === false && b.label === "wasabi");
  const strips = new Map(pairUp(loose, labelled).map(({ w, n }) => [n.id, w]));
  for (const top of labelled) stacks.push({ top, strip: strips.get(top.id) || null, label: top.label });

  const more = {};
  for (const n of NIGIRI) {
    const boxed = labelled.filter((b) => b.label === `${n}_on_wasabi`).length;
    more[n] = Math.max(0, (detected?.[`${n}_on_wasabi`] || 0) - boxed);
  }
  const wasabis = boxes.filter((b) => b.counted !== false && b.label === "wasabi");
  const nigiris = boxes.filter((b) => b.counted !== false && NIGIRI.includes(b.label));
  for (const { w, n } of pairUp(wasabis, nigiris, more)) {
    stacks.push({ top: n, strip: w, label: `${n.label}_on_wasabi` });
  }
  const partOf = new Map();
  for (const stack of stacks) {
    partOf.set(stack.top.id, stack);
    if (stack.strip) partOf.set(stack.strip.id, stack);
  }
  return { stacks, partOf };
}

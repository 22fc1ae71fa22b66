// Which boxes on a photo are one stack (a nigiri lying on its wasabi), so that the page
// shows it as one thing: "Salmon on wasabi", one box and two cards, its wasabi strip part
// of it rather than a wasabi of its own. The server decides what is counted and which
// boxes are one stack (each box's `stack_with`); this only gathers them.

const NIGIRI = ["egg", "salmon", "squid"];
const STACK_OF = Object.fromEntries(NIGIRI.map((n) => [`${n}_on_wasabi`, n]));

export function isStackLabel(label) {
  return label in STACK_OF;
}

// The nigiri lying on the wasabi in `stack`.
export function nigiriOf(stack) {
  return STACK_OF[stack.label];
}

// The correction that makes `stack` its plain nigiri, no wasabi under it: a box labelled
// as a stack is relabelled (the server drops the strip it absorbed with it); a plain
// nigiri on a counted wasabi loses that wasabi's box.
export function unstacking(stack) {
  if (isStackLabel(stack.top.label)) {
    return { action: "relabel", detection: stack.top.id, label: nigiriOf(stack) };
  }
  return stack.strip ? { action: "delete", detection: stack.strip.id } : null;
}

// The stacks among `boxes` (the collection's detections): [{ top, strip, label }] with
// `top` the nigiri's box (or the box labelled as a whole stack), `strip` the wasabi box
// under it (null where none was found), `label` the stack's tally key; and `partOf`, a
// Map from each of their box ids to its stack. The server says which boxes are one
// stack: each box's `stack_with` is the id of the other (the wasabi points at its
// nigiri, the nigiri at its wasabi), null for a box in no stack. A box labelled
// "<nigiri>_on_wasabi" that the tally counts is a stack, with its strip or without.
export function findStacks(boxes) {
  const byId = new Map(boxes.map((b) => [b.id, b]));
  const stacks = [];
  const partOf = new Map();
  for (const box of boxes) {
    if (partOf.has(box.id)) continue;
    const other = box.stack_with == null ? null : byId.get(box.stack_with) || null;
    let top = null;
    let strip = null;
    if (other && other.stack_with === box.id) {
      [top, strip] = box.label === "wasabi" ? [other, box] : [box, other];
    } else if (box.counted !== false && isStackLabel(box.label)) {
      top = box;
    } else {
      continue;
    }
    const label = isStackLabel(top.label) ? top.label : `${top.label}_on_wasabi`;
    const stack = { top, strip, label };
    stacks.push(stack);
    partOf.set(top.id, stack);
    if (strip) partOf.set(strip.id, stack);
  }
  return { stacks, partOf };
}

// The running totals by round as an inline SVG line chart (no library).

import { SEAT_COLOURS } from "./cards.js";

const SVG = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function niceStep(max) {
  const rough = Math.max(1, max) / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  for (const factor of [1, 2, 5, 10]) if (factor * power >= rough) return factor * power;
  return 10 * power;
}

// Players level at a point are drawn a line's width apart there, about the true value,
// in seat order: a tied player's line had lain hidden under another's. In chart units,
// by series and point.
const TIE_GAP = 3;

function tieShifts(series) {
  return series.map((s, seat) =>
    s.points.map((v, i) => {
      const level = series.filter((other) => other.points[i] === v);
      const place = level.findIndex((other) => other === s);
      return level.length > 1 ? (place - (level.length - 1) / 2) * TIE_GAP : 0;
    }),
  );
}

// standings: the API's StandingsPublic. Returns an <svg> element, or null before round 1.
export function totalsChart(standings) {
  const played = standings.rounds_played;
  if (!played) return null;
  const labels = ["Start"];
  for (let r = 1; r <= played; r += 1) labels.push(`R${r}`);
  if (standings.complete) labels.push("+Pudding");
  const series = standings.players.map((player) => {
    const points = [0];
    let sum = 0;
    for (const score of player.rounds) {
      sum += score;
      points.push(sum);
    }
    if (standings.complete) points.push(player.total);
    return { name: player.name, points };
  });
  const values = series.flatMap((s) => s.points);
  const lowest = Math.min(0, ...values);
  const highest = Math.max(1, ...values);
  const step = niceStep(highest - lowest);
  const top = Math.ceil(highest / step) * step;
  const bottom = Math.floor(lowest / step) * step;

  const width = 340;
  const height = 210;
  const pad = { left: 34, right: 30, top: 12, bottom: 28 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const x = (i) => pad.left + (labels.length === 1 ? 0 : (i * plotW) / (labels.length - 1));
  const y = (v) => pad.top + plotH - ((v - bottom) * plotH) / (top - bottom || 1);

  const svg = el("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "chart",
    role: "img",
    "aria-labelledby": "chart-title",
    "data-testid": "totals-chart",
  });
  svg.append(el("title", { id: "chart-title" }, "Running totals by round"));
  for (let v = bottom; v <= top + 1e-9; v += step) {
    svg.append(
      el("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: "grid" }),
      el("text", { x: pad.left - 6, y: y(v) + 4, class: "axis", "text-anchor": "end" }, v),
    );
  }
  labels.forEach((label, i) => {
    svg.append(
      el("text", { x: x(i), y: height - 8, class: "axis", "text-anchor": "middle" }, label),
    );
  });
  const shift = tieShifts(series);
  series.forEach((s, seat) => {
    const colour = SEAT_COLOURS[seat % SEAT_COLOURS.length];
    const at = (v, i) => y(v) + shift[seat][i];
    const path = s.points.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${at(v, i).toFixed(1)}`);
    svg.append(
      el("path", {
        d: path.join(" "),
        fill: "none",
        stroke: colour,
        "stroke-width": 3,
        "stroke-linejoin": "round",
        "stroke-dasharray": seat % 2 ? "7 4" : "none",
        "data-player": s.name,
      }),
    );
    s.points.forEach((v, i) => {
      const dot = el("circle", { cx: x(i), cy: at(v, i), r: 4, fill: colour });
      dot.append(el("title", {}, `${s.name}, ${labels[i]}: ${v}`));
      svg.append(dot);
    });
  });
  return svg;
}

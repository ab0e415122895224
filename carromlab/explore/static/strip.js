// The strip under the odds: one quantity with its interval band over one control (the
// expected points over the aim angle, or a chance over the aim point's y), the control's
// current value marked.

import { el, svgEl } from "./dom.js";

export function createStrip(parent) {
  const box = el("div", { class: "cl-strip" }, parent);
  const title = el("div", { class: "cl-strip-title" }, box, "");
  const svg = svgEl("svg", {
    viewBox: "0 0 320 110",
    role: "img",
    "aria-label": "expected points over the aim angle",
  }, box);
  return { box, title, svg };
}

export function drawStrip(model, strip) {
  const svg = strip.svg;
  svg.replaceChildren();
  const s = model.get("strip");
  strip.title.textContent = s.label ? `${s.label} (${s.n} shots each)` : "";
  if (!s.value) return;
  const vals = s.value.filter((v) => v !== null);
  const los = s.lo.filter((v) => v !== null);
  const his = s.hi.filter((v) => v !== null);
  if (!vals.length) return;
  const lo = Math.min(0, ...los), hi = Math.max(...his, 0.05);
  const a0 = s.angle[0], a1 = s.angle[s.angle.length - 1];
  const X = (a) => 30 + ((a - a0) / (a1 - a0)) * 280;
  const Y = (v) => 95 - ((v - lo) / (hi - lo)) * 85;
  let line = "";
  s.angle.forEach((a, i) => {
    if (s.value[i] === null) return;
    line += `${X(a)},${Y(s.value[i])} `;
  });
  const up = [], down = [];
  s.angle.forEach((a, i) => {
    if (s.lo[i] === null) return;
    up.push(`${X(a)},${Y(s.hi[i])}`);
    down.unshift(`${X(a)},${Y(s.lo[i])}`);
  });
  svgEl("polygon", { points: up.concat(down).join(" "), class: "cl-band" }, svg);
  svgEl("polyline", { points: line, class: "cl-line", fill: "none" }, svg);
  svgEl("line", { x1: 30, x2: 310, y1: Y(0), y2: Y(0), class: "cl-zero" }, svg);
  // the control the strip runs over: a shot's angle, a throw's aim y
  const cur = model.get("kind") === "shot" ? model.get("angle") : model.get("aim")[1];
  if (cur >= a0 && cur <= a1) {
    svgEl("line", { x1: X(cur), x2: X(cur), y1: 8, y2: 96, class: "cl-now" }, svg);
  }
  for (const [v, y] of [[hi, 12], [lo, 98]]) {
    const t = svgEl("text", { x: 2, y, class: "cl-tick" }, svg);
    t.textContent = v.toFixed(2);
  }
  for (const [a, anchor] of [[a0, "start"], [(a0 + a1) / 2, "middle"], [a1, "end"]]) {
    const t = svgEl("text", { x: X(a), y: 108, class: "cl-tick", "text-anchor": anchor }, svg);
    t.textContent = Math.abs(a1 - a0) > 5 ? a.toFixed(0) : a.toFixed(2);
  }
}

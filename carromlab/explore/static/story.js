// The story: what the shot does, in a sentence beside the board ("first hits ...;
// likeliest: ..."), and one typical execution's path drawn bold on the board.

import { el, svgEl } from "./dom.js";
import { pathColour, pathPoints, scale } from "./board.js";

export function createStory(parent) {
  return el("div", { class: "cl-story", "data-role": "story", "aria-label": "shot story" }, parent);
}

// The sentence into `box`, the path into the board's story layer.
export function drawStory(model, box, board) {
  const st = model.get("story");
  box.textContent = st.text ? "What it does: " + st.text : "";
  const g = board.story;
  g.replaceChildren();
  const pieces = model.get("board").pieces || [];
  const w = Math.max(1.5, 0.006 * scale(board));
  for (const [id, [xs, ys]] of Object.entries(st.path || {})) {
    if (xs.length < 2) continue;
    const moved = Math.hypot(xs[xs.length - 1] - xs[0], ys[ys.length - 1] - ys[0]);
    if (moved < 1e-3) continue;
    const pts = pathPoints(board, xs, ys);
    svgEl("polyline", { points: pts, fill: "none", stroke: "#ffffff", "stroke-width": w + 2, "stroke-opacity": 0.8 }, g);
    svgEl("polyline", { points: pts, fill: "none", stroke: pathColour(id, pieces), "stroke-width": w, "data-piece": id }, g);
  }
}

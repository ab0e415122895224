// The board: the picture drawn to scale with SVG layers over it (the shooter's track, the
// executions' paths, the story's path, the best shot, the aim) and the pointer on it.
// A board is the object createBoard returns; it keeps the picture's frame (W, H pixels over
// the world extent ext = [xmin, xmax, ymin, ymax] in metres).

import { svgEl, send } from "./dom.js";

const COLOURS = { white: "#f2ead3", black: "#262626", striker: "#1f6fd1", queen: "#c0392b" };

export function createBoard(parent) {
  const svg = svgEl("svg", { class: "cl-board", role: "img", "aria-label": "board" }, parent);
  const image = svgEl("image", {}, svg);
  const track = svgEl("polyline", { class: "cl-track", fill: "none" }, svg);
  const paths = svgEl("g", { class: "cl-paths", "data-role": "paths" }, svg);
  const story = svgEl("g", { class: "cl-story-path", "data-role": "story-path" }, svg);
  const best = svgEl("g", { class: "cl-best-line", "data-role": "best" }, svg);
  const aim = svgEl("line", { class: "cl-aim", "data-role": "aim" }, svg);
  const handle = svgEl("circle", {
    class: "cl-handle",
    tabindex: "0",
    role: "slider",
    "aria-label": "striker",
  }, svg);
  const target = svgEl("circle", { class: "cl-target", r: "6", "data-role": "aim-point" }, svg);
  return { svg, image, track, paths, story, best, aim, handle, target, W: 560, H: 560, ext: [-1, 1, -1, 1] };
}

// metres to the picture's pixels, and back
export const sx = (board, x) => ((x - board.ext[0]) / (board.ext[1] - board.ext[0])) * board.W;
export const sy = (board, y) => ((board.ext[3] - y) / (board.ext[3] - board.ext[2])) * board.H;
export const scale = (board) => board.W / (board.ext[1] - board.ext[0]);

export function toWorld(board, evt) {
  const pt = board.svg.createSVGPoint();
  pt.x = evt.clientX;
  pt.y = evt.clientY;
  const p = pt.matrixTransform(board.svg.getScreenCTM().inverse());
  const ext = board.ext;
  return [ext[0] + (p.x / board.W) * (ext[1] - ext[0]), ext[3] - (p.y / board.H) * (ext[3] - ext[2])];
}

// a path's points in the picture: "x,y x,y ..."
export function pathPoints(board, xs, ys) {
  return xs.map((x, i) => `${sx(board, x).toFixed(1)},${sy(board, ys[i]).toFixed(1)}`).join(" ");
}

export function pathColour(id, pieces) {
  if (id === "striker" || id === "shooter") return COLOURS.striker;
  const p = pieces.find((q) => q.id === id);
  if (!p) return "#555";
  if (p.kind === "queen") return COLOURS.queen;
  return COLOURS[p.owner] || "#8a5a2b";
}

// Where the shooter stands: the track's point nearest the placement.
export function origin(model) {
  const track = (model.get("board").track || []);
  if (!track.length) return [0, 0];
  const p = model.get("placement");
  let best = track[0];
  for (const r of track) if (Math.abs(r[0] - p) < Math.abs(best[0] - p)) best = r;
  return [best[1], best[2]];
}

// The picture and the fixed layers; false while there is no picture yet.
export function drawBoard(model, board) {
  const b = model.get("board");
  if (!b.image) return false;
  board.ext = b.extent;
  [board.W, board.H] = b.px;
  board.svg.setAttribute("viewBox", `0 0 ${board.W} ${board.H}`);
  board.image.setAttribute("href", b.image);
  board.image.setAttribute("width", board.W);
  board.image.setAttribute("height", board.H);
  const shot = model.get("kind") === "shot";
  const track = b.track || [];
  board.track.setAttribute("points", track.map((r) => `${sx(board, r[1])},${sy(board, r[2])}`).join(" "));
  board.track.style.display = shot && track.length > 1 ? "" : "none";
  board.handle.setAttribute("r", Math.max(4, (b.shooter_r || 0.02) * scale(board)));
  board.handle.style.display = shot ? "" : "none";
  board.aim.style.display = shot ? "" : "none";
  board.target.style.display = shot ? "none" : "";
  return true;
}

// The shooter and its aim line (a shot), or the aim point (a throw).
export function drawAim(model, board) {
  if (model.get("kind") === "shot") {
    const [x0, y0] = origin(model);
    const a = (model.get("angle") * Math.PI) / 180;
    const len = 0.06 + 0.035 * model.get("speed");
    board.handle.setAttribute("cx", sx(board, x0));
    board.handle.setAttribute("cy", sy(board, y0));
    board.handle.setAttribute("aria-valuenow", model.get("placement").toFixed(3));
    board.aim.setAttribute("x1", sx(board, x0));
    board.aim.setAttribute("y1", sy(board, y0));
    board.aim.setAttribute("x2", sx(board, x0 + len * Math.cos(a)));
    board.aim.setAttribute("y2", sy(board, y0 + len * Math.sin(a)));
  } else {
    const [ax, ay] = model.get("aim");
    board.target.setAttribute("cx", sx(board, ax));
    board.target.setAttribute("cy", sy(board, ay));
  }
}

// The executions: each one's moved pieces (the striker's path, a pocketed piece's bold, the
// other moved pieces faint), or where each throw landed.
export function drawPaths(model, board) {
  const g = board.paths;
  g.replaceChildren();
  const pieces = model.get("board").pieces || [];
  const w = Math.max(1, 0.004 * scale(board));
  for (const ex of model.get("paths")) {
    if (ex.landing) {
      svgEl("circle", { cx: sx(board, ex.landing[0]), cy: sy(board, ex.landing[1]), r: 3, class: "cl-landing" }, g);
      continue;
    }
    for (const [id, [xs, ys]] of Object.entries(ex.pieces)) {
      const fell = ex.captured.includes(id);
      const striker = id === "striker" || id === "shooter";
      svgEl("polyline", {
        points: pathPoints(board, xs, ys),
        fill: "none",
        stroke: pathColour(id, pieces),
        "stroke-width": fell ? 1.6 * w : striker ? w : 0.6 * w,
        "stroke-opacity": fell ? 0.9 : striker ? 0.45 : 0.15,
        "data-piece": id,
        "data-captured": fell ? "true" : "false",
      }, g);
    }
  }
  g.dataset.count = String(model.get("paths").length);
}

// The best shot's dashed line from its place, with its value.
export function drawBestShot(model, board) {
  const g = board.best;
  g.replaceChildren();
  const b = model.get("best");
  if (b.searching || b.error || b.value === undefined) return;
  const a = (b.angle * Math.PI) / 180;
  const len = 0.3;
  const [x, y] = [sx(board, b.x), sy(board, b.y)];
  svgEl("line", {
    x1: x, y1: y,
    x2: sx(board, b.x + len * Math.cos(a)), y2: sy(board, b.y + len * Math.sin(a)),
    class: "cl-best-shot", "data-role": "best-shot",
  }, g);
  svgEl("circle", { cx: x, cy: y, r: 5, class: "cl-best-origin" }, g);
  const right = x > 0.6 * board.W;  // the label on the board's inner side
  const label = svgEl("text", {
    x: x + (right ? -8 : 8),
    y: y - 8,
    "text-anchor": right ? "end" : "start",
    class: "cl-best-label",
  }, g);
  label.textContent = `best: ${b.value.toFixed(2)} points`;
}

// The pointer: drag the shooter along its track; elsewhere on the board, aim (a shot's angle
// or a throw's point); the arrow keys move the focused shooter.
export function attachPointer(model, board) {
  let dragging = null;
  const aimAt = (e) => {
    const [x, y] = toWorld(board, e);
    if (model.get("kind") === "throw") {
      send(model, "aim", [Math.round(x * 1000) / 1000, Math.round(y * 1000) / 1000]);
      return;
    }
    const [x0, y0] = origin(model);
    let a = (Math.atan2(y - y0, x - x0) * 180) / Math.PI;
    if (a < 0) a += 360;
    send(model, "angle", Math.round(a * 2) / 2);
  };
  board.handle.addEventListener("pointerdown", (e) => {
    if ((model.get("board").track || []).length > 1) dragging = "striker";
    e.stopPropagation();
    board.handle.setPointerCapture(e.pointerId);
  });
  board.svg.addEventListener("pointerdown", (e) => {
    dragging = "aim";
    aimAt(e);
  });
  window.addEventListener("pointermove", (e) => {
    if (dragging === "striker") {
      const [x, y] = toWorld(board, e);
      const track = model.get("board").track;
      let best = track[0], d = Infinity;
      for (const r of track) {
        const dd = (r[1] - x) ** 2 + (r[2] - y) ** 2;
        if (dd < d) { d = dd; best = r; }
      }
      send(model, "placement", best[0]);
    } else if (dragging === "aim") {
      aimAt(e);
    }
  });
  window.addEventListener("pointerup", () => { dragging = null; });
  board.handle.addEventListener("keydown", (e) => {
    const lim = model.get("limits").placement;
    const step = e.shiftKey ? 0.01 : 0.002;
    let p = model.get("placement");
    if (e.key === "ArrowLeft" || e.key === "ArrowDown") p -= step;
    else if (e.key === "ArrowRight" || e.key === "ArrowUp") p += step;
    else return;
    e.preventDefault();
    send(model, "placement", Math.min(lim[1], Math.max(lim[0], p)));
  });
}

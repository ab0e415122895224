// carromlab explorer: the board, the controls and the odds (anywidget front end).
// The Python side (carromlab/explore/widget.py) answers; this draws and sends the controls.

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = { white: "#f2ead3", black: "#262626", striker: "#1f6fd1", queen: "#c0392b" };

function el(tag, attrs = {}, parent = null, text = null) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function sel(tag, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function fmt(row) {
  if (row.kind === "probability") {
    const p = (v) => (100 * v).toFixed(1) + " %";
    return [p(row.estimate), p(row.lo) + " – " + p(row.hi)];
  }
  const m = (v) => v.toFixed(2);
  return [m(row.estimate), m(row.lo) + " – " + m(row.hi)];
}

function pathColour(id, pieces) {
  if (id === "striker" || id === "shooter") return COLOURS.striker;
  const p = pieces.find((q) => q.id === id);
  if (!p) return "#555";
  if (p.kind === "queen") return COLOURS.queen;
  return COLOURS[p.owner] || "#8a5a2b";
}

function labelled(parent, label, input) {
  const row = el("label", { class: "cl-row" }, parent);
  el("span", { class: "cl-label" }, row, label);
  row.appendChild(input);
  return row;
}

function slider(parent, name, label, step) {
  const range = el("input", { type: "range", "aria-label": name, step: String(step) });
  const num = el("input", {
    type: "number",
    "aria-label": name + " value",
    step: String(step),
    class: "cl-num",
  });
  const row = labelled(parent, label, range);
  row.appendChild(num);
  return { range, num, row };
}

function render({ model, el: root }) {
  root.classList.add("cl-explorer");
  const top = el("div", { class: "cl-top" }, root);
  const posSel = el("select", { "aria-label": "position" });
  labelled(top, "Position", posSel);
  const skillSel = el("select", { "aria-label": "skill" });
  labelled(top, "Skill", skillSel);
  const status = el("span", { class: "cl-status", role: "status", "aria-live": "polite" }, top);
  // the turn the shots are valued under, on a line of its own under the status
  const turnLine = el("div", { class: "cl-turn", "data-role": "turn", style: "flex-basis: 100%; color: #555" }, top);
  const drawTurn = () => { const t = model.get("turn_text"); turnLine.textContent = t ? "turn: " + t : ""; };

  const main = el("div", { class: "cl-main" }, root);
  const svg = sel("svg", { class: "cl-board", role: "img", "aria-label": "board" }, main);
  const side = el("div", { class: "cl-side" }, main);

  const controls = el("div", { class: "cl-controls" }, side);
  const placement = slider(controls, "placement", "Placement", 0.001);
  const angle = slider(controls, "angle", "Angle (deg)", 0.5);
  const speed = slider(controls, "speed", "Speed (m/s)", 0.05);
  const aimX = slider(controls, "aim x", "Aim x (m)", 0.005);
  const aimY = slider(controls, "aim y", "Aim y (m)", 0.005);
  const bestBtn = el("button", { "aria-label": "best shot", class: "cl-best" }, controls, "Best shot");
  const bestText = el("div", { class: "cl-best-text", "data-role": "best-text" }, controls);

  const error = el("div", { class: "cl-error", "data-role": "error", role: "alert" }, side);
  const storyBox = el("div", { class: "cl-story", "data-role": "story", "aria-label": "shot story" }, side);
  const table = el("table", { "aria-label": "shot probabilities", class: "cl-odds" }, side);
  const caption = el("caption", {}, table, "The shot's odds (95 % intervals)");
  const thead = el("thead", {}, table);
  const hr = el("tr", {}, thead);
  for (const h of ["", "estimate", "95 % interval"]) el("th", { scope: "col" }, hr, h);
  const tbody = el("tbody", {}, table);
  const stripBox = el("div", { class: "cl-strip" }, side);
  const stripTitle = el("div", { class: "cl-strip-title" }, stripBox, "");
  const strip = sel("svg", {
    viewBox: "0 0 320 110",
    role: "img",
    "aria-label": "expected points over the aim angle",
  }, stripBox);

  // board layers
  const image = sel("image", {}, svg);
  const trackLine = sel("polyline", { class: "cl-track", fill: "none" }, svg);
  const pathsG = sel("g", { class: "cl-paths", "data-role": "paths" }, svg);
  const storyG = sel("g", { class: "cl-story-path", "data-role": "story-path" }, svg);
  const bestG = sel("g", { class: "cl-best-line", "data-role": "best" }, svg);
  const aimLine = sel("line", { class: "cl-aim", "data-role": "aim" }, svg);
  const handle = sel("circle", {
    class: "cl-handle",
    tabindex: "0",
    role: "slider",
    "aria-label": "striker",
  }, svg);
  const target = sel("circle", { class: "cl-target", r: "6", "data-role": "aim-point" }, svg);

  let W = 560, H = 560, ext = [-1, 1, -1, 1];
  const sx = (x) => ((x - ext[0]) / (ext[1] - ext[0])) * W;
  const sy = (y) => ((ext[3] - y) / (ext[3] - ext[2])) * H;
  const scale = () => W / (ext[1] - ext[0]);
  function toWorld(evt) {
    const pt = svg.createSVGPoint();
    pt.x = evt.clientX;
    pt.y = evt.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    return [ext[0] + (p.x / W) * (ext[1] - ext[0]), ext[3] - (p.y / H) * (ext[3] - ext[2])];
  }

  function send(name, value) {
    model.set(name, value);
    model.save_changes();
  }

  function setupSlider(s, name, lo, hi) {
    s.range.min = s.num.min = String(lo);
    s.range.max = s.num.max = String(hi);
    const push = (v) => {
      const x = Math.min(hi, Math.max(lo, Number(v)));
      if (Number.isFinite(x)) send(name, x);
    };
    s.range.oninput = () => push(s.range.value);
    s.num.onchange = () => push(s.num.value);
  }

  function origin() {
    const track = (model.get("board").track || []);
    if (!track.length) return [0, 0];
    const p = model.get("placement");
    let best = track[0];
    for (const r of track) if (Math.abs(r[0] - p) < Math.abs(best[0] - p)) best = r;
    return [best[1], best[2]];
  }

  function drawBoard() {
    const b = model.get("board");
    if (!b.image) return;
    ext = b.extent;
    [W, H] = b.px;
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    image.setAttribute("href", b.image);
    image.setAttribute("width", W);
    image.setAttribute("height", H);
    const shot = model.get("kind") === "shot";
    const track = b.track || [];
    trackLine.setAttribute("points", track.map((r) => `${sx(r[1])},${sy(r[2])}`).join(" "));
    trackLine.style.display = shot && track.length > 1 ? "" : "none";
    handle.setAttribute("r", Math.max(4, (b.shooter_r || 0.02) * scale()));
    for (const s of [placement, angle, speed]) s.row.style.display = shot ? "" : "none";
    for (const s of [aimX, aimY]) s.row.style.display = shot ? "none" : "";
    handle.style.display = shot ? "" : "none";
    aimLine.style.display = shot ? "" : "none";
    target.style.display = shot ? "none" : "";
    bestBtn.style.display = shot ? "" : "none";
    const lim = model.get("limits");
    if (shot) {
      setupSlider(placement, "placement", lim.placement[0], lim.placement[1]);
      setupSlider(angle, "angle", lim.angle[0], lim.angle[1]);
      setupSlider(speed, "speed", lim.speed[0], lim.speed[1]);
      placement.range.disabled = placement.num.disabled = track.length <= 1;
      placement.row.querySelector(".cl-label").textContent = lim.placement_label || "Placement";
      placement.range.style.display = placement.num.style.display = track.length <= 1 ? "none" : "";
    } else {
      setupSlider(aimX, "aim", -0.4, 0.4);
      setupSlider(aimY, "aim", -0.4, 0.4);
      aimX.range.oninput = () => send("aim", [Number(aimX.range.value), model.get("aim")[1]]);
      aimX.num.onchange = () => send("aim", [Number(aimX.num.value), model.get("aim")[1]]);
      aimY.range.oninput = () => send("aim", [model.get("aim")[0], Number(aimY.range.value)]);
      aimY.num.onchange = () => send("aim", [model.get("aim")[0], Number(aimY.num.value)]);
    }
    drawShot();
  }

  function drawShot() {
    if (model.get("kind") === "shot") {
      const [x0, y0] = origin();
      const a = (model.get("angle") * Math.PI) / 180;
      const len = 0.06 + 0.035 * model.get("speed");
      handle.setAttribute("cx", sx(x0));
      handle.setAttribute("cy", sy(y0));
      handle.setAttribute("aria-valuenow", model.get("placement").toFixed(3));
      aimLine.setAttribute("x1", sx(x0));
      aimLine.setAttribute("y1", sy(y0));
      aimLine.setAttribute("x2", sx(x0 + len * Math.cos(a)));
      aimLine.setAttribute("y2", sy(y0 + len * Math.sin(a)));
      for (const [s, name, d] of [[placement, "placement", 3], [angle, "angle", 1], [speed, "speed", 2]]) {
        const v = model.get(name);
        if (document.activeElement !== s.num) s.num.value = v.toFixed(d);
        s.range.value = String(v);
      }
    } else {
      const [ax, ay] = model.get("aim");
      target.setAttribute("cx", sx(ax));
      target.setAttribute("cy", sy(ay));
      aimX.range.value = String(ax);
      aimY.range.value = String(ay);
      if (document.activeElement !== aimX.num) aimX.num.value = ax.toFixed(3);
      if (document.activeElement !== aimY.num) aimY.num.value = ay.toFixed(3);
    }
  }

  function drawOdds() {
    const o = model.get("odds");
    tbody.replaceChildren();
    for (const row of o.rows || []) {
      const tr = el("tr", { "data-quantity": row.quantity }, tbody);
      el("th", { scope: "row" }, tr, row.label);
      const [est, ci] = fmt(row);
      el("td", { class: "cl-est" }, tr, est);
      el("td", { class: "cl-ci" }, tr, ci);
    }
    const what = model.get("kind") === "throw" ? "throws" : "noisy executions";
    caption.textContent = o.n
      ? `The shot's odds from ${o.n} ${what} (95 % intervals)${o.final ? "" : ", refining"}`
      : "The shot's odds";
    table.dataset.n = String(o.n || 0);
    table.dataset.final = o.final ? "true" : "false";
    table.dataset.generation = String(o.generation || 0);
  }

  function drawPaths() {
    pathsG.replaceChildren();
    const pieces = model.get("board").pieces || [];
    const w = Math.max(1, 0.004 * scale());
    for (const ex of model.get("paths")) {
      if (ex.landing) {
        sel("circle", { cx: sx(ex.landing[0]), cy: sy(ex.landing[1]), r: 3, class: "cl-landing" }, pathsG);
        continue;
      }
      // the striker's path, a pocketed piece's path bold, the other moved pieces faint
      for (const [id, [xs, ys]] of Object.entries(ex.pieces)) {
        const pts = xs.map((x, i) => `${sx(x).toFixed(1)},${sy(ys[i]).toFixed(1)}`).join(" ");
        const fell = ex.captured.includes(id);
        const striker = id === "striker" || id === "shooter";
        sel("polyline", {
          points: pts,
          fill: "none",
          stroke: pathColour(id, pieces),
          "stroke-width": fell ? 1.6 * w : striker ? w : 0.6 * w,
          "stroke-opacity": fell ? 0.9 : striker ? 0.45 : 0.15,
          "data-piece": id,
          "data-captured": fell ? "true" : "false",
        }, pathsG);
      }
    }
    pathsG.dataset.count = String(model.get("paths").length);
  }

  function drawStory() {
    const st = model.get("story");
    storyBox.textContent = st.text ? "What it does: " + st.text : "";
    storyG.replaceChildren();
    const pieces = model.get("board").pieces || [];
    const w = Math.max(1.5, 0.006 * scale());
    for (const [id, [xs, ys]] of Object.entries(st.path || {})) {
      if (xs.length < 2) continue;
      const moved = Math.hypot(xs[xs.length - 1] - xs[0], ys[ys.length - 1] - ys[0]);
      if (moved < 1e-3) continue;
      const pts = xs.map((x, i) => `${sx(x).toFixed(1)},${sy(ys[i]).toFixed(1)}`).join(" ");
      sel("polyline", { points: pts, fill: "none", stroke: "#ffffff", "stroke-width": w + 2, "stroke-opacity": 0.8 }, storyG);
      sel("polyline", { points: pts, fill: "none", stroke: pathColour(id, pieces), "stroke-width": w, "data-piece": id }, storyG);
    }
  }

  function drawBest() {
    bestG.replaceChildren();
    const b = model.get("best");
    bestBtn.disabled = !!b.searching;
    if (b.searching) {
      bestText.textContent = "searching for the best shot…";
      return;
    }
    if (b.error) {
      bestText.textContent = b.error;
      return;
    }
    if (b.value === undefined) {
      bestText.textContent = "";
      return;
    }
    const a = (b.angle * Math.PI) / 180;
    const len = 0.3;
    sel("line", {
      x1: sx(b.x), y1: sy(b.y),
      x2: sx(b.x + len * Math.cos(a)), y2: sy(b.y + len * Math.sin(a)),
      class: "cl-best-shot", "data-role": "best-shot",
    }, bestG);
    sel("circle", { cx: sx(b.x), cy: sy(b.y), r: 5, class: "cl-best-origin" }, bestG);
    const right = sx(b.x) > 0.6 * W;  // the label on the board's inner side
    const tx = sel("text", {
      x: sx(b.x) + (right ? -8 : 8),
      y: sy(b.y) - 8,
      "text-anchor": right ? "end" : "start",
      class: "cl-best-label",
    }, bestG);
    tx.textContent = `best: ${b.value.toFixed(2)} points`;
    bestText.textContent =
      `Best shot: placement ${b.placement.toFixed(3)}, ${b.angle.toFixed(1)} deg, ` +
      `${b.speed.toFixed(2)} m/s: ${b.value.toFixed(2)} ${b.label} ` +
      `(${b.lo.toFixed(2)} – ${b.hi.toFixed(2)}). `;
    const use = el("button", { class: "cl-use", "aria-label": "play the best shot" }, bestText, "Play it");
    use.onclick = () => {
      model.set("placement", b.placement);
      model.set("angle", b.angle);
      model.set("speed", b.speed);
      model.save_changes();
    };
  }

  function drawStrip() {
    strip.replaceChildren();
    const s = model.get("strip");
    stripTitle.textContent = s.label ? `${s.label} (${s.n} shots each)` : "";
    if (!s.value) return;
    const vals = s.value.filter((v) => v !== null);
    const los = s.lo.filter((v) => v !== null);
    const his = s.hi.filter((v) => v !== null);
    if (!vals.length) return;
    const lo = Math.min(0, ...los), hi = Math.max(...his, 0.05);
    const a0 = s.angle[0], a1 = s.angle[s.angle.length - 1];
    const X = (a) => 30 + ((a - a0) / (a1 - a0)) * 280;
    const Y = (v) => 95 - ((v - lo) / (hi - lo)) * 85;
    let band = "", line = "";
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
    band = up.concat(down).join(" ");
    sel("polygon", { points: band, class: "cl-band" }, strip);
    sel("polyline", { points: line, class: "cl-line", fill: "none" }, strip);
    sel("line", { x1: 30, x2: 310, y1: Y(0), y2: Y(0), class: "cl-zero" }, strip);
    const cur = model.get("kind") === "shot" ? model.get("angle") : model.get("aim")[1];
    if (cur >= a0 && cur <= a1) {
      sel("line", { x1: X(cur), x2: X(cur), y1: 8, y2: 96, class: "cl-now" }, strip);
    }
    for (const [v, y] of [[hi, 12], [lo, 98]]) {
      const t = sel("text", { x: 2, y, class: "cl-tick" }, strip);
      t.textContent = v.toFixed(2);
    }
    for (const [a, anchor] of [[a0, "start"], [(a0 + a1) / 2, "middle"], [a1, "end"]]) {
      const t = sel("text", { x: X(a), y: 108, class: "cl-tick", "text-anchor": anchor }, strip);
      t.textContent = Math.abs(a1 - a0) > 5 ? a.toFixed(0) : a.toFixed(2);
    }
  }

  function fillSelect(s, names, value) {
    s.replaceChildren();
    for (const n of names) {
      const o = el("option", { value: n }, s, n);
      if (n === value) o.selected = true;
    }
  }

  function drawAll() {
    fillSelect(posSel, model.get("positions"), model.get("position"));
    fillSelect(skillSel, model.get("skills"), model.get("skill"));
    drawBoard();
    drawOdds();
    drawPaths();
    drawBest();
    drawStory();
    drawStrip();
    error.textContent = model.get("error");
    status.textContent = model.get("status");
    drawTurn();
  }

  posSel.onchange = () => send("position", posSel.value);
  skillSel.onchange = () => send("skill", skillSel.value);
  bestBtn.onclick = () => send("best_requests", model.get("best_requests") + 1);

  // dragging: the striker along its track; elsewhere on the board, the aim (or KOOBA's point)
  let dragging = null;
  handle.addEventListener("pointerdown", (e) => {
    if ((model.get("board").track || []).length > 1) dragging = "striker";
    e.stopPropagation();
    handle.setPointerCapture(e.pointerId);
  });
  svg.addEventListener("pointerdown", (e) => {
    dragging = "aim";
    aimAt(e);
  });
  function aimAt(e) {
    const [x, y] = toWorld(e);
    if (model.get("kind") === "throw") {
      send("aim", [Math.round(x * 1000) / 1000, Math.round(y * 1000) / 1000]);
      return;
    }
    const [x0, y0] = origin();
    let a = (Math.atan2(y - y0, x - x0) * 180) / Math.PI;
    if (a < 0) a += 360;
    send("angle", Math.round(a * 2) / 2);
  }
  window.addEventListener("pointermove", (e) => {
    if (dragging === "striker") {
      const [x, y] = toWorld(e);
      const track = model.get("board").track;
      let best = track[0], d = Infinity;
      for (const r of track) {
        const dd = (r[1] - x) ** 2 + (r[2] - y) ** 2;
        if (dd < d) { d = dd; best = r; }
      }
      send("placement", best[0]);
    } else if (dragging === "aim") {
      aimAt(e);
    }
  });
  window.addEventListener("pointerup", () => { dragging = null; });
  handle.addEventListener("keydown", (e) => {
    const lim = model.get("limits").placement;
    const step = e.shiftKey ? 0.01 : 0.002;
    let p = model.get("placement");
    if (e.key === "ArrowLeft" || e.key === "ArrowDown") p -= step;
    else if (e.key === "ArrowRight" || e.key === "ArrowUp") p += step;
    else return;
    e.preventDefault();
    send("placement", Math.min(lim[1], Math.max(lim[0], p)));
  });

  model.on("change:board", drawAll);
  model.on("change:positions", drawAll);
  model.on("change:skills", () => fillSelect(skillSel, model.get("skills"), model.get("skill")));
  model.on("change:skill", () => fillSelect(skillSel, model.get("skills"), model.get("skill")));
  model.on("change:position", () => fillSelect(posSel, model.get("positions"), model.get("position")));
  for (const n of ["placement", "angle", "speed", "aim"]) model.on(`change:${n}`, () => { drawShot(); drawStrip(); });
  model.on("change:odds", drawOdds);
  model.on("change:paths", drawPaths);
  model.on("change:best", drawBest);
  model.on("change:story", drawStory);
  model.on("change:strip", drawStrip);
  model.on("change:status", () => { status.textContent = model.get("status"); });
  model.on("change:turn_text", drawTurn);
  model.on("change:error", () => { error.textContent = model.get("error"); });
  drawAll();
}

export default { render };

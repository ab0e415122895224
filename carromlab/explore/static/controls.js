// The controls: the position and skill choices with the status and the turn above the board;
// beside it the sliders (a shot's placement, angle and speed, or a throw's aim point), each
// with its number box, and the best-shot button with its answer.

import { el, send } from "./dom.js";

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

// The line above the board: position, skill, status, and the turn on a line of its own.
export function createHeader(parent) {
  const top = el("div", { class: "cl-top" }, parent);
  const position = el("select", { "aria-label": "position" });
  labelled(top, "Position", position);
  const skill = el("select", { "aria-label": "skill" });
  labelled(top, "Skill", skill);
  const status = el("span", { class: "cl-status", role: "status", "aria-live": "polite" }, top);
  // the turn the shots are valued under, on a line of its own under the status
  const turn = el("div", { class: "cl-turn", "data-role": "turn", style: "flex-basis: 100%; color: #555" }, top);
  return { top, position, skill, status, turn };
}

// The sliders and the best-shot button, beside the board.
export function createControls(parent) {
  const box = el("div", { class: "cl-controls" }, parent);
  return {
    box,
    placement: slider(box, "placement", "Placement", 0.001),
    angle: slider(box, "angle", "Angle (deg)", 0.5),
    speed: slider(box, "speed", "Speed (m/s)", 0.05),
    aimX: slider(box, "aim x", "Aim x (m)", 0.005),
    aimY: slider(box, "aim y", "Aim y (m)", 0.005),
    bestButton: el("button", { "aria-label": "best shot", class: "cl-best" }, box, "Best shot"),
    bestText: el("div", { class: "cl-best-text", "data-role": "best-text" }, box),
  };
}

// What the controls send: a choice, the best-shot request.
export function wireControls(model, header, controls) {
  header.position.onchange = () => send(model, "position", header.position.value);
  header.skill.onchange = () => send(model, "skill", header.skill.value);
  controls.bestButton.onclick = () => send(model, "best_requests", model.get("best_requests") + 1);
}

function fillSelect(s, names, value) {
  s.replaceChildren();
  for (const n of names) {
    const o = el("option", { value: n }, s, n);
    if (n === value) o.selected = true;
  }
}

export function drawPositions(model, header) {
  fillSelect(header.position, model.get("positions"), model.get("position"));
}

export function drawSkills(model, header) {
  fillSelect(header.skill, model.get("skills"), model.get("skill"));
}

export function drawStatus(model, header) {
  header.status.textContent = model.get("status");
}

export function drawTurn(model, header) {
  const t = model.get("turn_text");
  header.turn.textContent = t ? "turn: " + t : "";
}

// A slider's range, and `push` called with each value it or its number box gives.
function setRange(s, lo, hi, push) {
  s.range.min = s.num.min = String(lo);
  s.range.max = s.num.max = String(hi);
  s.range.oninput = () => push(s.range.value);
  s.num.onchange = () => push(s.num.value);
}

// The sliders the model's kind uses, with their ranges (the model's limits); the others hidden.
export function setupControls(model, controls) {
  const { placement, angle, speed, aimX, aimY } = controls;
  const shot = model.get("kind") === "shot";
  for (const s of [placement, angle, speed]) s.row.style.display = shot ? "" : "none";
  for (const s of [aimX, aimY]) s.row.style.display = shot ? "none" : "";
  controls.bestButton.style.display = shot ? "" : "none";
  const lim = model.get("limits");
  if (shot) {
    for (const [s, name] of [[placement, "placement"], [angle, "angle"], [speed, "speed"]]) {
      const [lo, hi] = lim[name];
      setRange(s, lo, hi, (v) => {
        const x = Math.min(hi, Math.max(lo, Number(v)));
        if (Number.isFinite(x)) send(model, name, x);
      });
    }
    const track = model.get("board").track || [];
    placement.range.disabled = placement.num.disabled = track.length <= 1;
    placement.row.querySelector(".cl-label").textContent = lim.placement_label || "Placement";
    placement.range.style.display = placement.num.style.display = track.length <= 1 ? "none" : "";
  } else {
    const [lo, hi] = lim.aim;
    setRange(aimX, lo, hi, (v) => send(model, "aim", [Number(v), model.get("aim")[1]]));
    setRange(aimY, lo, hi, (v) => send(model, "aim", [model.get("aim")[0], Number(v)]));
  }
}

// The sliders' values (a number box being typed in is left alone).
export function drawValues(model, controls) {
  if (model.get("kind") === "shot") {
    for (const name of ["placement", "angle", "speed"]) {
      const s = controls[name];
      const v = model.get(name);
      const digits = { placement: 3, angle: 1, speed: 2 }[name];
      if (document.activeElement !== s.num) s.num.value = v.toFixed(digits);
      s.range.value = String(v);
    }
  } else {
    const [ax, ay] = model.get("aim");
    controls.aimX.range.value = String(ax);
    controls.aimY.range.value = String(ay);
    if (document.activeElement !== controls.aimX.num) controls.aimX.num.value = ax.toFixed(3);
    if (document.activeElement !== controls.aimY.num) controls.aimY.num.value = ay.toFixed(3);
  }
}

// The best shot's answer under its button: searching, why there is none, or the shot with a
// button that plays it.
export function drawBest(model, controls) {
  const b = model.get("best");
  const text = controls.bestText;
  controls.bestButton.disabled = !!b.searching;
  if (b.searching) {
    text.textContent = "searching for the best shot…";
    return;
  }
  if (b.error) {
    text.textContent = b.error;
    return;
  }
  if (b.value === undefined) {
    text.textContent = "";
    return;
  }
  text.textContent =
    `Best shot: placement ${b.placement.toFixed(3)}, ${b.angle.toFixed(1)} deg, ` +
    `${b.speed.toFixed(2)} m/s: ${b.value.toFixed(2)} ${b.label} ` +
    `(${b.lo.toFixed(2)} – ${b.hi.toFixed(2)}). `;
  const use = el("button", { class: "cl-use", "aria-label": "play the best shot" }, text, "Play it");
  use.onclick = () => {
    model.set("placement", b.placement);
    model.set("angle", b.angle);
    model.set("speed", b.speed);
    model.save_changes();
  };
}

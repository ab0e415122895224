// carromlab explorer: the board, the controls and the odds (anywidget front end).
// The Python side (carromlab/explore/widget.py) answers; this module lays the page out and
// wires the model's changes to the modules that draw them (board, controls, odds, story,
// strip). carromlab/explore/frontend.py bundles these modules into the one module anywidget
// loads; each is a plain ES module too.

import { el } from "./dom.js";
import { attachPointer, createBoard, drawAim, drawBestShot, drawBoard, drawPaths } from "./board.js";
import {
  createControls,
  createHeader,
  drawBest,
  drawPositions,
  drawSkills,
  drawStatus,
  drawTurn,
  drawValues,
  setupControls,
  wireControls,
} from "./controls.js";
import { createOdds, drawOdds } from "./odds.js";
import { createStory, drawStory } from "./story.js";
import { createStrip, drawStrip } from "./strip.js";

function render({ model, el: root }) {
  root.classList.add("cl-explorer");
  const header = createHeader(root);
  const main = el("div", { class: "cl-main" }, root);
  const board = createBoard(main);
  const side = el("div", { class: "cl-side" }, main);
  const controls = createControls(side);
  const error = el("div", { class: "cl-error", "data-role": "error", role: "alert" }, side);
  const story = createStory(side);
  const odds = createOdds(side);
  const strip = createStrip(side);

  const drawError = () => { error.textContent = model.get("error"); };
  const drawShot = () => { drawAim(model, board); drawValues(model, controls); };
  const drawBestAll = () => { drawBestShot(model, board); drawBest(model, controls); };
  const drawAll = () => {
    drawPositions(model, header);
    drawSkills(model, header);
    if (drawBoard(model, board)) {
      setupControls(model, controls);
      drawShot();
    }
    drawOdds(model, odds);
    drawPaths(model, board);
    drawBestAll();
    drawStory(model, story, board);
    drawStrip(model, strip);
    drawError();
    drawStatus(model, header);
    drawTurn(model, header);
  };

  wireControls(model, header, controls);
  attachPointer(model, board);

  model.on("change:board", drawAll);
  model.on("change:positions", drawAll);
  model.on("change:skills", () => drawSkills(model, header));
  model.on("change:skill", () => drawSkills(model, header));
  model.on("change:position", () => drawPositions(model, header));
  for (const n of ["placement", "angle", "speed", "aim"]) {
    model.on(`change:${n}`, () => { drawShot(); drawStrip(model, strip); });
  }
  model.on("change:odds", () => drawOdds(model, odds));
  model.on("change:paths", () => drawPaths(model, board));
  model.on("change:best", drawBestAll);
  model.on("change:story", () => drawStory(model, story, board));
  model.on("change:strip", () => drawStrip(model, strip));
  model.on("change:status", () => drawStatus(model, header));
  model.on("change:turn_text", () => drawTurn(model, header));
  model.on("change:error", drawError);
  drawAll();
}

export default { render };

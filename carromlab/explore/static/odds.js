// The odds table: the model's rows (a chance or a mean, its estimate and 95 % interval),
// with the number of shots behind them and whether they are final.

import { el } from "./dom.js";

function formatted(row) {
  if (row.kind === "probability") {
    const p = (v) => (100 * v).toFixed(1) + " %";
    return [p(row.estimate), p(row.lo) + " – " + p(row.hi)];
  }
  const m = (v) => v.toFixed(2);
  return [m(row.estimate), m(row.lo) + " – " + m(row.hi)];
}

export function createOdds(parent) {
  const table = el("table", { "aria-label": "shot probabilities", class: "cl-odds" }, parent);
  const caption = el("caption", {}, table, "The shot's odds (95 % intervals)");
  const thead = el("thead", {}, table);
  const hr = el("tr", {}, thead);
  for (const h of ["", "estimate", "95 % interval"]) el("th", { scope: "col" }, hr, h);
  const body = el("tbody", {}, table);
  return { table, caption, body };
}

export function drawOdds(model, odds) {
  const o = model.get("odds");
  odds.body.replaceChildren();
  for (const row of o.rows || []) {
    const tr = el("tr", { "data-quantity": row.quantity }, odds.body);
    el("th", { scope: "row" }, tr, row.label);
    const [est, ci] = formatted(row);
    el("td", { class: "cl-est" }, tr, est);
    el("td", { class: "cl-ci" }, tr, ci);
  }
  const what = model.get("kind") === "throw" ? "throws" : "noisy executions";
  odds.caption.textContent = o.n
    ? `The shot's odds from ${o.n} ${what} (95 % intervals)${o.final ? "" : ", refining"}`
    : "The shot's odds";
  odds.table.dataset.n = String(o.n || 0);
  odds.table.dataset.final = o.final ? "true" : "false";
  odds.table.dataset.generation = String(o.generation || 0);
}

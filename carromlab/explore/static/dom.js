// Making the page's elements, and the one way a control reaches the Python side.

const SVG = "http://www.w3.org/2000/svg";

// An HTML element with its attributes (and text), appended to `parent` where given.
export function el(tag, attrs = {}, parent = null, text = null) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// An SVG element with its attributes, appended to `parent` where given.
export function svgEl(tag, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// Set one of the model's values and send it to the Python side.
export function send(model, name, value) {
  model.set(name, value);
  model.save_changes();
}

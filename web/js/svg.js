// svg.js — tiny helpers to build SVG and HTML elements without a framework.
export const SVG_NS = 'http://www.w3.org/2000/svg';

// s('rect', {x: 1, class: 'cell'}, parent) creates an SVG element, sets attributes
// (null/undefined values are skipped) and appends it to parent when given.
export function s(tag, attrs = {}, parent = null) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v);
  }
  if (parent) parent.appendChild(el);
  return el;
}

// h('div', {class: 'x', onclick: fn}, ['text', child]) creates an HTML element.
export function h(tag, attrs = {}, children = []) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else if (k === 'html') el.innerHTML = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, v);
  }
  for (const c of [].concat(children)) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

// A standalone <svg> with a viewBox.
export function svgRoot(viewBox, attrs = {}) {
  return s('svg', { viewBox, xmlns: SVG_NS, ...attrs });
}

export const fmt = (n) => (Math.round(n * 100) / 100).toString();

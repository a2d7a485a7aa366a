// @ts-check
// The timeline's input: wheel zoom and pan, drag, click to select (a click on a collapsible host
// thread's label collapses or expands it), hover for the tooltip, and the keys.
import { LABEL_W } from './timeline_state.js';
import { pan, plotW, setView, zoom } from './timeline_view.js';
import { rowAt, showTip } from './timeline_hit.js';
import { collapsible } from './timeline_layout.js';
import { select, selectAt, selectDown, selectNext, selectUp, zoomToSelection } from './timeline_selection.js';

/** @typedef {import('./timeline_state.js').TimelineState} TimelineState */

// onToggleHost(h) collapses or expands host lane h (timeline.js).
/** @param {TimelineState} tl */
export function wireInput(tl, onToggleHost) {
  const { canvas, tip, view } = tl;
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const r = canvas.getBoundingClientRect();
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) pan(tl, (e.deltaX || e.deltaY) / 1000);
    else zoom(tl, Math.pow(1.0015, e.deltaY), e.clientX - r.left);
  }, { passive: false });
  let drag = null;
  canvas.addEventListener('mousedown', (e) => { drag = { x: e.clientX, v0: view.v0, v1: view.v1 }; canvas.style.cursor = 'grabbing'; });
  window.addEventListener('mouseup', (e) => {
    // A press and release in place is a click: on a collapsible thread's label it collapses or
    // expands the thread; elsewhere it selects the box under it.
    if (drag && e.target === canvas && Math.abs(e.clientX - drag.x) < 3) {
      const r = canvas.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
      const row = x < LABEL_W ? rowAt(tl, y) : null;
      if (row && row.kind === 'host' && collapsible(row.host)) onToggleHost(row.host);
      else selectAt(tl, x, y);
    }
    drag = null; canvas.style.cursor = 'grab';
  });
  canvas.addEventListener('mousemove', (e) => {
    const r = canvas.getBoundingClientRect();
    if (drag) {
      const dt = ((e.clientX - drag.x) / plotW(tl)) * (drag.v1 - drag.v0);
      setView(tl, drag.v0 - dt, drag.v1 - dt);
      tip.hidden = true;
      return;
    }
    showTip(tl, e.clientX - r.left, e.clientY - r.top);
  });
  canvas.addEventListener('mouseleave', () => { tip.hidden = true; });
  canvas.addEventListener('keydown', (e) => {
    const k = e.key;
    if (k === '+' || k === '=' || k === 'w') zoom(tl, 1 / 1.5);
    else if (k === '-' || k === '_' || k === 's') zoom(tl, 1.5);
    else if (k === 'ArrowLeft' || k === 'a') pan(tl, -0.15);
    else if (k === 'ArrowRight' || k === 'd') pan(tl, 0.15);
    else if (k === '0' || k === 'Home') setView(tl, tl.full.a, tl.full.b);
    else if (k === 'Escape') select(tl, null);
    else if (k === 'n' || k === ']') selectNext(tl, 1);
    else if (k === 'p' || k === '[') selectNext(tl, -1);
    else if (k === 'u') selectUp(tl);
    else if (k === 'j') selectDown(tl);
    else if (k === 'f' || k === 'Enter') zoomToSelection(tl);
    else return;
    e.preventDefault();
  });
}

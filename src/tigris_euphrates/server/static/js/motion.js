// Motion that tells what happened between the board on screen and the next one: a placed
// tile or leader slides in from the hand (another seat's, from its player's panel; a moved
// leader, from where it stood), what a conflict or a catastrophe removed fades out where it
// stood, a monument, the wonder or a building rises, a catastrophe drops, and each scored
// point (or treasure) flies from the board to its owner's score (a hidden score: to the
// owner's "hidden" mark; only what the viewer's own log already says is flown).
//
// Everything here is decoration over a board that is final at once: the new board is drawn
// and clickable before anything moves; the moving pieces are the board's own (the Web
// Animations API on their transform, pointer-events: none), the fading ones transient
// copies in a picture laid over the board, the points transient chips over the page: no click
// reaches either. Each animation ends within half a second and removes what it added.
// None at all with the page's "reduce motion" preference or the system's setting.
import { svg } from "./dom.js";
import { CS, cellPos } from "./words.js";
import { moveCells } from "./log.js";
/** @typedef {import("./shapes.js").Json} Json */

const SLIDE = 380,
  FADE = 420,
  RISE = 420,
  FLY = 450; // ms, all under half a second
const MAX_FLIGHTS = 8; // a big scoring step flies its first points, the rest just appear
const EASE = "cubic-bezier(.2,.7,.3,1)";

// motion is wanted unless the page's preference or the system asks for less
export function motionWanted(/** @type {Json} */ ui) {
  if (ui && ui.reduceMotion) return false;
  return !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

// Before a redraw that shows a step forward: where the pieces come from on screen (the
// hand's tiles and leaders, the players' panels), read while the old page is still there;
// null when nothing will move.
export function beforeStep(/** @type {Json} */ ui) {
  if (!motionWanted(ui)) return null;
  const rect = (/** @type {Json} */ el) => (el ? el.getBoundingClientRect() : null);
  /** @type {{tiles: Record<string, Json>, leaders: Record<string, Json>, seats: Record<string, Json>}} */
  const from = { tiles: {}, leaders: {}, seats: {} };
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#hand .hand-tile[data-colour]")))
    from.tiles[String(el.dataset.colour)] ??= rect(el);
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (
    document.querySelectorAll("#hand .leader-chip[data-leader]")
  ))
    from.leaders[String(el.dataset.leader)] ??= rect(el);
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".players .player[data-seat]")))
    from.seats[String(el.dataset.seat)] = rect(el);
  return { from, old: document.getElementById("boardsvg") };
}

// After the redraw: `before` from beforeStep, the views before and after, the log entries
// of the step(s) between them, the new board's root and the seat on screen (null: a
// spectator). Says how many animations it started (body[data-motion], for the tests).
export function showStep(
  /** @type {Json} */ before,
  /** @type {Json} */ was,
  /** @type {Json} */ now,
  /** @type {Json} */ entries,
  /** @type {Element} */ root,
  /** @type {number | null} */ me,
) {
  let started = 0;
  if (before && was && now && root && root.isConnected) {
    const run = { root, me, from: before.from, old: before.old, count: 0 };
    arrivals(run, was, now, entries || []);
    removals(run, was, now);
    points(run, now, entries || []);
    started = run.count;
  }
  document.body.dataset.motion = String(started);
  return started;
}

// --- what arrives: slides, drops and rises on the board's own new pieces -------------------
function arrivals(
  /** @type {Json} */ run,
  /** @type {Json} */ was,
  /** @type {Json} */ now,
  /** @type {Json} */ entries,
) {
  const placedBy = new Map(); // cell -> seat, from the step's events
  for (const e of entries)
    for (const ev of e.events || []) {
      if (["tile_placed", "leader_placed", "building_placed"].includes(ev.type)) placedBy.set(ev.cell, ev.seat);
    }
  const actor = was.to_act ?? (was.turn || {}).player ?? null;
  for (const [cell, c] of Object.entries(now.cells)) {
    const before = was.cells[cell] || {};
    if (c.tile && c.tile !== before.tile) {
      const seat = placedBy.has(cell) ? placedBy.get(cell) : actor;
      slideIn(
        run,
        pieceAt(run.root, "g.piece", cell),
        cell,
        seat === run.me ? run.from.tiles[c.tile] : run.from.seats[seat],
      );
    } else if (c.catastrophe && !before.catastrophe) drop(run, pieceAt(run.root, "g.catastrophe", cell));
  }
  for (const l of now.leaders) {
    const old = was.leaders.find((/** @type {Json} */ o) => o.seat === l.seat && o.colour === l.colour);
    if (old && old.cell === l.cell) continue;
    const el = run.root.querySelector(`g.leader[data-at="${l.cell}"][data-leader="${l.colour}"]`);
    if (old) slideFromCell(run, el, l.cell, old.cell);
    else slideIn(run, el, l.cell, l.seat === run.me ? run.from.leaders[l.colour] : run.from.seats[l.seat]);
  }
  for (const [mon, at] of Object.entries(now.monuments || {})) {
    if ((was.monuments || {})[mon] === at) continue;
    rise(
      run,
      mon === "wonder"
        ? run.root.querySelector("#wonder")
        : run.root.querySelector(`g.monument[data-monument="${mon}"]`),
    );
  }
  for (const [colour, at] of Object.entries(now.buildings || {})) {
    const old = (was.buildings || {})[colour];
    if (old === at) continue;
    const el = run.root.querySelector(`g.building[data-colour="${colour}"]`);
    if (old) slideFromCell(run, el, at, old);
    else rise(run, el);
  }
}
const pieceAt = (/** @type {Element} */ root, /** @type {string} */ sel, /** @type {string} */ cell) =>
  root.querySelector(`${sel}[data-at="${cell}"]`);
const centre = (/** @type {string} */ cell) => {
  const [c, r] = cellPos(cell);
  return [c * CS + CS / 2, r * CS + CS / 2];
};

function animate(
  /** @type {Json} */ run,
  /** @type {Json} */ el,
  /** @type {Json} */ keyframes,
  /** @type {number} */ ms,
  /** @type {string} */ cls = "",
) {
  if (!el || typeof el.animate !== "function") return null;
  if (cls) el.classList.add(cls);
  const a = el.animate(keyframes, { duration: ms, easing: EASE });
  run.count++;
  return a;
}
// from a place on screen (a hand tile, a player's panel) to the piece's cell
function slideIn(
  /** @type {Json} */ run,
  /** @type {Json} */ el,
  /** @type {string} */ cell,
  /** @type {Json} */ rect,
) {
  if (!el) return;
  const m = run.root.getScreenCTM();
  if (!rect || !m) {
    drop(run, el);
    return;
  }
  const p = new DOMPoint(rect.left + rect.width / 2, rect.top + rect.height / 2).matrixTransform(m.inverse());
  const [x, y] = centre(cell);
  animate(
    run,
    el,
    [
      { transform: `translate(${p.x - x}px, ${p.y - y}px) scale(.8)`, opacity: 0.4 },
      { transform: "none", opacity: 1 },
    ],
    SLIDE,
    "fresh",
  );
}
function slideFromCell(
  /** @type {Json} */ run,
  /** @type {Json} */ el,
  /** @type {string} */ cell,
  /** @type {Json} */ fromCell,
) {
  if (!el) return;
  const [x0, y0] = centre(fromCell),
    [x, y] = centre(cell);
  animate(run, el, [{ transform: `translate(${x0 - x}px, ${y0 - y}px)` }, { transform: "none" }], SLIDE, "fresh");
}
function drop(/** @type {Json} */ run, /** @type {Json} */ el) {
  animate(
    run,
    el,
    [
      { transform: "scale(1.35)", opacity: 0.2 },
      { transform: "none", opacity: 1 },
    ],
    SLIDE,
    "fresh",
  );
}
function rise(/** @type {Json} */ run, /** @type {Json} */ el) {
  animate(
    run,
    el,
    [
      { transform: "translateY(14px) scale(.55)", opacity: 0.1 },
      { transform: "none", opacity: 1 },
    ],
    RISE,
    "fresh",
  );
}

// --- what leaves: copies of the old pieces fading where they stood ---------------------------
function removals(/** @type {Json} */ run, /** @type {Json} */ was, /** @type {Json} */ now) {
  if (!run.old) return;
  const gone = [];
  for (const [cell, c] of Object.entries(was.cells)) {
    const after = now.cells[cell] || {};
    if (c.tile && after.tile !== c.tile) gone.push(`g.piece[data-at="${cell}"]`);
    if (c.treasure && !after.treasure) gone.push(`.treasure[data-at="${cell}"]`, `.treasure-star[data-at="${cell}"]`);
  }
  for (const l of was.leaders)
    if (!now.leaders.some((/** @type {Json} */ n) => n.seat === l.seat && n.colour === l.colour))
      gone.push(`g.leader[data-at="${l.cell}"][data-leader="${l.colour}"]`);
  for (const colour of Object.keys(was.buildings || {}))
    if (!(now.buildings || {})[colour]) gone.push(`g.building[data-colour="${colour}"]`);
  const copies = gone.flatMap(sel => [...run.old.querySelectorAll(sel)]).map(ghostOf);
  const box = run.root.parentNode;
  if (!copies.length || !box) return;
  // the copies in a picture of their own laid over the board, which takes no click: the
  // board under it keeps only what is there now, and its click targets
  const layer = svg("svg", { class: "ghosts", viewBox: run.root.getAttribute("viewBox"), "aria-hidden": "true" });
  const r = run.root.getBoundingClientRect(),
    b = box.getBoundingClientRect();
  Object.assign(layer.style, {
    left: r.left - b.left - box.clientLeft + box.scrollLeft + "px",
    top: r.top - b.top - box.clientTop + box.scrollTop + "px",
    width: r.width + "px",
    height: r.height + "px",
  });
  layer.append(...copies);
  box.append(layer);
  const a = animate(run, layer, [{ opacity: 1 }, { opacity: 0 }], FADE);
  const done = () => layer.remove();
  if (a) {
    a.onfinish = done;
    a.oncancel = done;
  } else done();
}
function ghostOf(/** @type {Json} */ el) {
  // a piece's look without what names it (no title, role, data or id: nothing to find)
  const copy = el.cloneNode(true);
  for (const e of [copy, ...copy.querySelectorAll("*")]) {
    for (const name of [...e.getAttributeNames()])
      if (/^(data-|aria-|role$|id$|tabindex$)/.test(name)) e.removeAttribute(name);
  }
  copy.querySelectorAll("title").forEach((/** @type {Json} */ t) => t.remove());
  copy.classList.remove("fresh");
  return copy;
}

// --- what is scored: a chip flying from the board to its owner's score -----------------------
function points(/** @type {Json} */ run, /** @type {Json} */ now, /** @type {Json} */ entries) {
  let flights = 0;
  for (const e of entries) {
    let at = moveCells(e)[0] || null;
    for (const ev of e.events || []) {
      if (ev.cell && ev.type !== "points_scored") at = ev.cell;
      if (flights >= MAX_FLIGHTS) return;
      if (ev.type === "points_scored") {
        const from = ev.reason === "monument" ? monumentOf(now, ev.colour) || at : at;
        if (fly(run, from, ev.seat, ev.colour, "+" + ev.points)) flights++;
      } else if (ev.type === "treasure_taken" && fly(run, ev.cell, ev.seat, "treasure", "+1")) flights++;
    }
  }
}
function monumentOf(/** @type {Json} */ view, /** @type {string} */ colour) {
  for (const [mon, at] of Object.entries(view.monuments || {}))
    if (mon !== "wonder" && mon.split("-").includes(colour)) return at;
  return null;
}
function fly(
  /** @type {Json} */ run,
  /** @type {string} */ cell,
  /** @type {number} */ seat,
  /** @type {string} */ colour,
  /** @type {string} */ label,
) {
  // to the owner's chip of that colour; a hidden score: to the owner's "hidden" mark
  const panel = document.querySelector(`.players .player[data-seat="${seat}"]`);
  const chipTo = panel && panel.querySelector(`.chip[data-points="${colour}"]`);
  const target = chipTo || (panel && panel.querySelector(".score-total"));
  const hit = cell && run.root.querySelector(`.hit[data-cell="${cell}"]`);
  const src = (hit || run.root).getBoundingClientRect(),
    dst = target && target.getBoundingClientRect();
  if (!dst || !dst.width) return false;
  const chip = document.createElement("span");
  chip.className = "fly-point chip c-" + colour;
  chip.setAttribute("aria-hidden", "true");
  chip.textContent = label;
  Object.assign(chip.dataset, { seat, to: chipTo ? colour : "hidden" }); // where it goes (the tests read it)
  document.body.append(chip);
  const x0 = src.left + src.width / 2,
    y0 = src.top + src.height / 2,
    x1 = dst.left + dst.width / 2,
    y1 = dst.top + dst.height / 2;
  const a = animate(
    run,
    chip,
    [
      { transform: `translate(${x0}px, ${y0}px) translate(-50%, -50%) scale(1.2)`, opacity: 1 },
      { transform: `translate(${x1}px, ${y1}px) translate(-50%, -50%) scale(.8)`, opacity: 0.3 },
    ],
    FLY,
  );
  const done = () => chip.remove();
  if (a) {
    a.onfinish = done;
    a.oncancel = done;
  } else done();
  return true;
}

// The tutorial: the list of lessons and one lesson played on the board. A lesson's position
// comes from the server as a game's view frame; each action is sent with the ones before it
// (POST /api/lessons/{id}/play) and the server's engine says whether the goal is reached
// ("done"), missed ("failed") or not yet ("playing"); the page shows what happened from the
// events of the answer, and the lesson's own texts in the page's language; its board shows
// the coordinates the texts name. The game's keys work in a lesson as in a game (keys.js).
import { $, api, app, h, toast } from "./dom.js";
import { CAT, LANG, loadCatalogue, tx } from "./words.js";
import { drawBoard } from "./board.js";
import { decisionPanel, logBox, playerPanel } from "./panels.js";
import { handPanel } from "./hand.js";
import { supplyCard } from "./status.js";
import { lastMove } from "./log.js";
import { eventText } from "./text.js";
import { installEscape, targetsFor } from "./moves.js";
import { focusKey, installKeys, restoreFocus } from "./keys.js";
import { pageState, showOffline } from "./page.js";
import { loadPrefs, savePref } from "./prefs.js";
import { beforeStep, showStep } from "./motion.js";
/** @typedef {import("./shapes.js").Json} Json */
/** @typedef {import("./shapes.js").Conn} Conn */
/** @typedef {import("./page.js").Page} Page */

// a lesson's text in the page's language (English when a lesson lacks it)
const said = (/** @type {Json} */ texts, /** @type {string} */ key) => (texts[LANG] || texts.en || {})[key] || "";
const titleOf = (/** @type {Json} */ lesson) => lesson.title[LANG] || lesson.title.en;

export async function tutorialPage() {
  const [{ lessons }] = await Promise.all([api("/api/lessons"), loadCatalogue(null)]);
  document.title = tx("tutorial_title") + " · " + CAT.title;
  const done = loadPrefs().lessons || []; // the lessons this browser completed
  app.replaceChildren(
    h(
      "div",
      { class: "card tutorial", id: "lessons" },
      h("h2", {}, tx("tutorial_title")),
      h("p", { class: "muted" }, tx("tutorial_text")),
      h(
        "ol",
        {},
        lessons.map((/** @type {Json} */ l) =>
          h(
            "li",
            { "data-lesson": l.id, "data-done": done.includes(l.id) ? "1" : "0" },
            h("a", { href: "/tutorial/" + l.id }, titleOf(l)),
            done.includes(l.id) ? h("span", { class: "lesson-done" }, " ✔ " + tx("lesson_done_mark")) : null,
          ),
        ),
      ),
    ),
  );
}

export async function lessonPage(/** @type {Json} */ id) {
  const lesson = await api(`/api/lessons/${encodeURIComponent(id)}`);
  await loadCatalogue(lesson.options);
  const all = (await api("/api/lessons")).lessons;
  const page = pageState("lesson-" + id, false);
  const lessonState = {
    lesson,
    actions: [],
    status: "playing",
    seen: 0,
    next: all[all.findIndex((/** @type {Json} */ l) => l.id === id) + 1] || null,
  };
  page.ready = true;
  page.lessonState = lessonState;
  page.render = () => renderLesson(page);
  page.act = action => play(page, [...lessonState.actions, action]);
  page.send = (c, msg) => {
    if (msg && msg.type === "move") page.act(msg.action);
    return true;
  };
  installKeys(page.ui, false); // the game's keys: a lesson is played as a game is
  installEscape(page);
  show(page, lesson.frame);
  document.title = titleOf(lesson) + " · " + CAT.title;
  app.replaceChildren(h("div", { class: "game lesson" }, page.boardBox, page.side));
  page.render();
}

// the learner's frame on screen, with the seats' names in the page's words
function show(/** @type {Page} */ page, /** @type {Json} */ frame) {
  for (const s of frame.seats)
    s.name = s.kind === "bot" ? tx("bot_name", { level: s.level }) : tx("player_n", { n: s.seat + 1 });
  showOffline(page, frame, frame.log);
}

async function play(/** @type {Page} */ page, /** @type {Json} */ actions) {
  const st = page.lessonState;
  page.ui.sel = null;
  page.ui.swap = null;
  try {
    const answer = await api(`/api/lessons/${encodeURIComponent(st.lesson.id)}/play`, { actions });
    const shown = /** @type {Conn} */ (page.shown);
    st.seen = shown.log.length; // what happened since: the events of this answer
    page.lessonStep = { was: shown.msg.view, entries: answer.frame.log.slice(st.seen) }; // moved on the board (motion.js)
    st.actions = actions;
    st.status = answer.status;
    const done = loadPrefs().lessons || [];
    if (st.status === "done" && !done.includes(st.lesson.id)) savePref("lessons", [...done, st.lesson.id]);
    show(page, answer.frame);
  } catch (e) {
    toast(/** @type {Error} */ (e).message);
  }
  page.render();
}

function restart(/** @type {Page} */ page) {
  const st = page.lessonState;
  st.actions = [];
  st.status = "playing";
  st.seen = 0;
  show(page, st.lesson.frame);
  page.render();
}

function renderLesson(/** @type {Page} */ page) {
  const c = /** @type {Conn} */ (page.shown),
    ui = page.ui,
    m = c.msg,
    v = m.view,
    legal = v.legal_actions || [];
  const st = page.lessonState,
    focus = focusKey();
  document.body.dataset.lesson = st.status;
  document.body.dataset.seq = m.seq;
  $("#status").textContent = titleOf(st.lesson);
  const targets = targetsFor(ui, v);
  const step = page.lessonStep,
    before = step && beforeStep(ui);
  page.lessonStep = null;
  // a lesson names its cells ("the temple at i7"): its board always shows the coordinates,
  // whatever the board preference (left as it was for the games)
  const board = drawBoard(v, { ...ui, coords: true, seats: m.seats, last: lastMove(c.log), targets, onCell: page.act });
  page.boardBox.replaceChildren(board);
  const panels = [lessonCard(page)];
  if (v.pending && (v.pending.conflict || v.pending.stage !== "action") && st.status === "playing")
    panels.push(decisionPanel(page, v, m.seats, legal));
  if (st.status === "playing") panels.push(handPanel(page, v, legal, m.seat, false, c));
  panels.push(supplyCard(v));
  panels.push(
    h(
      "div",
      { class: "card" },
      h("h3", {}, tx("players")),
      h(
        "div",
        { class: "players" },
        v.players.map((/** @type {Json} */ p) => playerPanel(page, v, p, m.seats, m.seat, c)),
      ),
    ),
  );
  panels.push(h("div", { class: "card" }, h("h3", {}, tx("log")), logBox(c.log, m.seats, true)));
  page.side.replaceChildren(...panels.filter(Boolean));
  restoreFocus(focus);
  if (step) showStep(before, step.was, v, step.entries, board, m.seat);
}

// the lesson: its introduction and goal, what the last action did, and the verdict
function lessonCard(/** @type {Page} */ page) {
  const st = page.lessonState,
    texts = st.lesson.texts,
    c = /** @type {Conn} */ (page.shown);
  const happened = c.log
    .slice(st.seen)
    .flatMap(e => e.events.map((/** @type {Json} */ ev) => eventText(ev, c.msg.seats)).filter(Boolean));
  const verdict =
    st.status === "done"
      ? h("p", { class: "lesson-done", id: "lesson-verdict", role: "status" }, "✔ " + said(texts, "done"))
      : st.status === "failed"
        ? h("p", { class: "lesson-failed", id: "lesson-verdict", role: "status" }, said(texts, "failed"))
        : null;
  return h(
    "div",
    { class: "card decision", id: "lesson" },
    h("h2", {}, titleOf(st.lesson)),
    h("p", {}, said(texts, "intro")),
    h("p", {}, h("b", {}, tx("lesson_goal")), " ", said(texts, "goal")),
    happened.length
      ? h(
          "div",
          { class: "muted", id: "lesson-events" },
          h("b", {}, tx("lesson_happened")),
          h(
            "ul",
            {},
            happened.map(t => h("li", {}, t)),
          ),
        )
      : null,
    verdict,
    h(
      "div",
      { class: "actions" },
      st.actions.length
        ? h("button", { id: "lesson-restart", onclick: () => restart(page) }, tx("lesson_restart"))
        : null,
      st.status === "done" && st.next
        ? h(
            "a",
            { class: "button primary", id: "lesson-next", href: "/tutorial/" + st.next.id },
            tx("lesson_next", { title: titleOf(st.next) }),
          )
        : null,
      h("a", { href: "/tutorial", id: "lesson-list" }, tx("lesson_all")),
    ),
  );
}

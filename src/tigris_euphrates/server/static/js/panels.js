// The side panels of the game page. `ctx` is the page's state (page.js): its id, ui, meta and
// its actions act(action), send(conn, msg), render().
import { api, h, store, toast } from "./dom.js";
import { CAT, COLOURS, SEAT_RING, dynSymbol, optionChips, term, tileIcon, tx, word } from "./words.js";
import { scoreOf, seatName } from "./text.js";
import { logLines, noteLines } from "./log.js";
import { warRows } from "./status.js";
import { savePref } from "./prefs.js";
import { applyPalette } from "./words.js";
import { clockLine, timeoutNote } from "./clocks.js";
import { ask } from "./dialog.js";
import { ratedOpening } from "./aborted.js";
/** @typedef {import("./shapes.js").Conn} Conn */
/** @typedef {import("./shapes.js").Json} Json */
/** @typedef {import("./page.js").Page} Page */

export function optionsCard(/** @type {Json} */ v) {
  const o = v.options || {};
  return h(
    "div",
    { class: "card options", id: "options" },
    h("b", {}, CAT.title),
    " · ",
    tx("n_players", { n: o.players }),
    h(
      "div",
      { class: "chips" },
      optionChips(o).map(t => h("span", { class: "chip option" }, t)),
    ),
  );
}
export function toggles(/** @type {Page} */ ctx) {
  return h(
    "div",
    { class: "card toggles" },
    toggle(
      ctx,
      word("kingdoms").replace(/^./, x => x.toUpperCase()),
      "kingdoms",
    ),
    toggle(ctx, `${tx("strengths")} (${tx("strength_legend")})`, "strengths"),
    toggle(ctx, tx("coordinates"), "coords"),
    toggle(ctx, tx("palette"), "palette"),
    toggle(ctx, tx("zoom"), "zoom"),
    toggle(ctx, tx("reduce_motion"), "reduceMotion"),
  );
}
export function lastConflict(/** @type {Json} */ log, /** @type {Json[]} */ seats) {
  // the result of a conflict stays on screen until two more actions have been played
  for (const e of log.slice(-3).reverse())
    for (const ev of e.events)
      if (ev.type === "conflict_resolved")
        return h(
          "div",
          { class: "card", id: "conflict-result" },
          h("h3", {}, tx("conflict_result_title", ev)),
          h(
            "div",
            { class: "vs" },
            h(
              "div",
              {},
              h("b", {}, seatName(seats, ev.winner)),
              h(
                "div",
                { class: "big" },
                ev.winner === ev.loser
                  ? ""
                  : ev.kind && ev.attacker_total !== undefined
                    ? Math.max(ev.attacker_total, ev.defender_total)
                    : "",
              ),
            ),
            h("div", {}, tx("beats")),
            h(
              "div",
              {},
              h("b", {}, seatName(seats, ev.loser)),
              h("div", { class: "big" }, Math.min(ev.attacker_total, ev.defender_total)),
            ),
          ),
          h(
            "p",
            { class: "muted" },
            tx("conflict_result_text", {
              attacker: ev.attacker_total,
              defender: ev.defender_total,
              loser: seatName(seats, ev.loser),
              colour: ev.colour,
            }),
          ),
        );
  return null;
}
export function toggle(
  /** @type {Page} */ ctx,
  /** @type {string} */ text,
  /** @type {"coords" | "kingdoms" | "strengths" | "palette" | "zoom" | "reduceMotion"} */ key,
) {
  // a board preference: kept for this browser (prefs.js)
  return h(
    "label",
    {},
    h("input", {
      type: "checkbox",
      checked: ctx.ui[key],
      "data-pref": key,
      onchange: e => {
        ctx.ui[key] = /** @type {HTMLInputElement} */ (e.target).checked;
        savePref(key, ctx.ui[key]);
        if (key === "palette") applyPalette();
        document.body.classList.toggle("zoom", !!ctx.ui.zoom);
        ctx.render();
      },
    }),
    " " + text,
  );
}
export function decisionPanel(
  /** @type {Page} */ ctx,
  /** @type {Json} */ v,
  /** @type {Json[]} */ seats,
  /** @type {Json} */ legal,
) {
  const p = v.pending,
    box = h("div", { class: "card decision", id: "decision", "data-stage": p.stage });
  if (p.conflict) {
    const k = p.conflict;
    box.append(
      h("h3", {}, tx("conflict_title", k)),
      h(
        "div",
        { class: "vs" },
        h(
          "div",
          {},
          h("div", { class: "role-attacker" }, tx("attacker_title")),
          h("b", {}, seatName(seats, k.attacker)),
          h("div", { class: "big" }, k.attacker_base),
          h("div", { class: "muted" }, tx("base")),
          h("div", {}, k.attacker_commit === null ? tx("support_open") : tx("support_n", { n: k.attacker_commit })),
        ),
        h("div", { class: "big" }, tx("vs")),
        h(
          "div",
          {},
          h("div", { class: "role-defender" }, tx("defender_title")),
          h("b", {}, seatName(seats, k.defender)),
          h("div", { class: "big" }, k.defender_base),
          h("div", { class: "muted" }, tx("base")),
          h("div", {}, k.attacker_commit === null ? tx("support_waits") : tx("support_open")),
        ),
      ),
      h("p", { class: "muted" }, tx(k.kind === "revolt" ? "support_revolt" : "support_war", k)),
    );
  } else if (p.stage === "war") box.append(h("h3", {}, tx("war_choice")), warRows(v, seats, legal, ctx.act));
  else if (p.stage === "monument" && p.monument.centres)
    box.append(h("h3", {}, tx("wonder_offer")), h("p", { class: "muted" }, tx("wonder_text", p.monument)));
  else if (p.stage === "monument")
    box.append(h("h3", {}, tx("monument_offer")), h("p", { class: "muted" }, tx("monument_text", p.monument)));
  else if (p.stage === "treasure") box.append(h("h3", {}, tx("treasure_pick")));
  else if (p.stage === "building")
    box.append(
      h("h3", {}, tx("building_offer", p.building)),
      h("p", { class: "muted" }, tx("building_text", p.building)),
    );
  else if (p.stage === "wonder_point")
    box.append(h("h3", {}, tx("wonder_point")), h("p", { class: "muted" }, tx("wonder_point_text")));
  else if (p.stage === "harvest")
    box.append(h("h3", {}, tx("harvest")), h("p", { class: "muted" }, tx("harvest_text")));
  const buttons = legal.filter(
    (/** @type {Json} */ a) =>
      /^(commit|decline|monument|wonder|point)/.test(a) || (a.startsWith("war ") && !(p.wars || []).length),
  );
  if (buttons.length)
    box.append(
      h(
        "div",
        { class: "actions" },
        buttons.map((/** @type {Json} */ a) => {
          const w = a.split(" "),
            colour = w[0] === "point" ? w[1] : null;
          return h(
            "button",
            { "data-action": a, class: colour ? "c-" + colour + " point" : "", onclick: () => ctx.act(a) },
            label(a),
          );
        }),
      ),
    );
  else if (!legal.length && !v.over)
    box.append(h("p", { class: "muted" }, tx("waiting_for", { name: seatName(seats, v.to_act) })));
  return box;
}
export function label(/** @type {Json} */ a) {
  const w = a.split(" ");
  if (w[0] === "commit") return tx("label_commit", { n: w[1] });
  if (w[0] === "war") return tx("label_war", { colour: w[1] });
  if (w[0] === "monument") return tx("label_monument", { monument: w[1], cell: w[2] });
  if (w[0] === "wonder") return tx("label_wonder", { cell: w[1] });
  if (w[0] === "point") return tx("label_point", { colour: w[1] });
  if (w[0] === "building") return tx("label_building", { colour: w[1], cell: w[2] });
  if (w[0] === "decline") return tx("label_decline");
  if (w[0] === "withdraw") return tx("label_withdraw", { colour: w[1] });
  if (w[0] === "pass") return tx("label_pass");
  return a;
}
export function scoreChips(/** @type {Json} */ score) {
  return h(
    "div",
    { class: "chips score" },
    COLOURS.map(col =>
      h(
        "span",
        { class: "chip c-" + col, title: term("points", col), "data-points": col },
        score[col] + " " + term("point", col),
      ),
    ),
    h(
      "span",
      { class: "chip c-treasure", title: word("treasures"), "data-points": "treasure" },
      tx("treasure_symbol") + score.treasure,
    ),
  );
}
// a seat's name (an account's links to its profile) with a bot account's BOT mark and its
// rating in the game's family beside it, the rating change once the rated game is counted,
// "resigned"
export function seatLabel(/** @type {Json[]} */ seats, /** @type {number} */ i, /** @type {number | null} */ me) {
  const s = seats[i] || {},
    you = i === me ? " " + tx("you_mark") : "";
  const name = s.account
    ? h("a", { class: "seatname", href: "/players/" + encodeURIComponent(s.account) }, s.account)
    : h("span", { class: "seatname" }, seatName(seats, i));
  const bot = s.bot ? h("b", { class: "chip botmark", title: tx("bot_account_title") }, tx("bot_mark")) : null;
  const rating =
    s.rating === null || s.rating === undefined
      ? null
      : h("span", { class: "chip seat-rating", title: tx("rating_title") }, String(s.rating));
  const change =
    s.change === null || s.change === undefined
      ? null
      : h(
          "span",
          { class: "rating-change " + (s.change >= 0 ? "up" : "down") },
          (s.change >= 0 ? "+" : "−") + Math.abs(s.change),
        );
  return h(
    "span",
    { class: "seatlabel", "data-seat": i },
    name,
    bot ? " " : null,
    bot,
    rating ? " " : null,
    rating,
    change ? " " : null,
    change,
    you,
    s.resigned ? h("span", { class: "chip resigned" }, tx("resigned_mark")) : null,
  );
}
// the pieces of another player one may see: the tiles in a hand shown, the leaders off the board
function pieceChips(/** @type {Json} */ p, /** @type {number | null} */ me, /** @type {string} */ sym) {
  const chips = [];
  if (p.hand && p.seat !== me)
    chips.push(
      h(
        "div",
        { class: "chips" },
        tx("hand_of"),
        COLOURS.flatMap(col =>
          Array.from({ length: p.hand[col] }, () =>
            h("span", { class: "chip c-" + col, title: term("tile", col) }, tileIcon(col)),
          ),
        ),
      ),
    );
  if (p.leaders_off_board.length)
    chips.push(
      h(
        "div",
        { class: "chips" },
        tx("off_board"),
        p.leaders_off_board.map((/** @type {string} */ col) =>
          h(
            "span",
            { class: "chip c-" + col, title: term("leader", col), "data-leader": col },
            sym + " " + term("leader", col),
          ),
        ),
      ),
    );
  return chips;
}
// a seat's own player takes it back from the bot that plays it while they are away
function takeBackButton(/** @type {Json} */ id, /** @type {number} */ seat, /** @type {Conn} */ c) {
  const takeBack = async () => {
    try {
      await api(`/api/games/${id}/seats/${seat}/human`, c.token ? { token: c.token } : {});
    } catch (e) {
      toast(/** @type {Error} */ (e).message);
    }
  };
  return h("button", { class: "tohuman", onclick: takeBack }, tx("take_back"));
}
export function playerPanel(
  /** @type {Page} */ ctx,
  /** @type {Json} */ v,
  /** @type {Json} */ p,
  /** @type {Json[]} */ seats,
  /** @type {number | null} */ me,
  /** @type {Json} */ c, // the seat's connection (a replay: none, {})
) {
  const id = ctx.id;
  const s = seats[p.seat],
    sym = dynSymbol(p.dynasty);
  /** @type {(Node | null)[]} */
  const rows = [
    h(
      "div",
      { class: "top" },
      h(
        "span",
        {},
        h("span", { class: "dot" + (s.online ? " on" : "") }),
        h("b", { style: `color:${SEAT_RING[p.seat]}`, title: term("dynasty", p.dynasty) }, sym + " "),
        seatLabel(seats, p.seat, me),
      ),
      h("span", { class: "score-total" }, p.score ? tx("score", { n: scoreOf(p.score) }) : tx("score_hidden")),
    ),
  ];
  rows.push(
    h(
      "div",
      { class: "muted" },
      tx("player_line", { hand: p.hand_size, catastrophes: p.catastrophes }) +
        (s.kind === "bot" ? " · " + tx("bot_level", { level: s.level }) : ""),
    ),
  );
  rows.push(clockLine(c.msg, p.seat), timeoutNote(c.msg, p.seat));
  if (p.score) rows.push(scoreChips(p.score));
  rows.push(...pieceChips(p, me, sym));
  // a seat goes to a bot by its own player, or by the game's creator while its player is away
  const creator = store.get(id).creator;
  const token = p.seat === me ? c.token : !s.online ? creator : null;
  // a seat opened through the account (no token here) changes through the account
  const byAccount = p.seat === me && !c.token && c.account;
  // a replay is history: nobody's seat changes there (its early steps are not "over"), nor
  // in a stopped game
  const live = !v.over && !ctx.replayMode && !(c.msg && c.msg.aborted);
  if (s.kind === "human" && live && (token || byAccount))
    rows.push(seatToBot(ctx, p.seat, seats, p.seat === me, token, c.msg, ratedOpening(ctx, c)));
  if (s.kind === "bot" && s.away && p.seat === me && live && (c.token || byAccount))
    rows.push(takeBackButton(id, p.seat, c));
  return h(
    "div",
    { class: "player" + (v.to_act === p.seat ? " acting" : "") + (p.seat === me ? " me" : ""), "data-seat": p.seat },
    rows,
  );
}
// "Leave: a bot takes my seat" with the bot's level; for the creator, "Hand this seat to a
// bot" only once its player had a fair chance to come (offline for the server's absence
// time): until then the panel says when it will be offered.
/** @type {Record<number, number>} */
const fairChance = {}; // by seat: the render that offers the seat once the wait is over
function seatToBot(
  /** @type {Page} */ ctx,
  /** @type {number} */ seat,
  /** @type {Json[]} */ seats,
  /** @type {Json} */ mine,
  /** @type {Json} */ token,
  /** @type {Json} */ m,
  /** @type {Json} */ opening,
) {
  const meta = ctx.meta || {},
    levels = meta.bot_levels || [],
    s = seats[seat],
    name = seatName(seats, seat);
  const pace = m.clock && m.clock.pace;
  if (!mine && ctx.rated && pace) return null; // the clock's own timeout rule decides (the server's too)
  // a turn-based game waits the pace's own time for a move; others the server's absence time
  const wait =
    pace && pace.kind === "turn" ? Math.max(pace.base, meta.seat_absence_seconds || 0) : meta.seat_absence_seconds || 0;
  if (!mine) {
    const away = s.offline_since ? Date.now() / 1000 - s.offline_since : 0;
    if (away < wait) {
      clearTimeout(fairChance[seat]);
      fairChance[seat] = setTimeout(ctx.render, Math.min((wait - away) * 1000 + 500, 2 ** 31 - 1));
      return h("div", { class: "muted tobot-wait" }, tx("seat_wait", { name, n: Math.ceil((wait - away) / 60) }));
    }
  }
  const level = h(
    "select",
    { class: "tobot-level", "aria-label": tx("bot_level_label") },
    levels.map((/** @type {Json} */ l) =>
      h("option", { value: l, selected: l === meta.default_level }, term("level", l)),
    ),
  );
  return h(
    "div",
    { class: "chips" },
    h(
      "button",
      {
        class: "tobot",
        onclick: async () => {
          // in a rated game, a seat its own player hands to a bot forfeits the game (the fair-play
          // rule); in its opening, before every seat had a first turn, it aborts the game instead
          const question = !mine
            ? tx("hand_confirm", { level: level.value, name })
            : opening
              ? tx("leave_confirm_opening")
              : ctx.rated
                ? tx("leave_confirm_rated", { level: level.value })
                : tx("leave_confirm", { level: level.value });
          if (
            !(await ask(
              "asktobot",
              tx(mine ? "leave_to_bot" : "seat_to_bot"),
              question,
              tx("tobot_yes"),
              tx("keep_playing"),
            ))
          )
            return;
          try {
            await api(`/api/games/${ctx.id}/seats/${seat}/bot`, { token, level: level.value });
          } catch (e) {
            toast(/** @type {Error} */ (e).message);
          }
        },
      },
      tx(mine ? "leave_to_bot" : "seat_to_bot"),
    ),
    level,
  );
}
// the invitation links beside the seats while the game goes on, each with "Copy link"
export function invitePanel(/** @type {Page} */ ctx, /** @type {Json} */ over) {
  const inv = store.get(ctx.id).invites;
  if (!inv || over) return null;
  const copy = async (/** @type {string} */ url, /** @type {Json} */ button) => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      const field = button.previousSibling;
      field.select();
      document.execCommand("copy");
    }
    button.textContent = tx("link_copied");
    setTimeout(() => {
      button.textContent = tx("copy_link");
    }, 2000);
  };
  return h(
    "div",
    { class: "card invite", id: "invites" },
    h("h3", {}, tx("invite_links")),
    Object.entries(inv).map(([k, url]) =>
      h(
        "div",
        { class: "invite-line", "data-invite": k },
        h("span", {}, k === "spectators" ? tx("spectators") : tx("seat_n", { n: +k + 1 })),
        " ",
        h("input", {
          readonly: true,
          value: url,
          onclick: e => /** @type {HTMLInputElement} */ (e.target).select(),
          "aria-label": tx("invite_links"),
        }),
        h("button", { class: "copylink", onclick: e => copy(url, e.target) }, tx("copy_link")),
      ),
    ),
  );
}
export function logBox(
  /** @type {Json} */ log,
  /** @type {Json[]} */ seats,
  /** @type {Json} */ coords,
  /** @type {Json} */ current = undefined,
  /** @type {Json} */ notes = [],
) {
  // one block per entry: the mover's lines in words, the seat changes among them;
  // ``current`` marks an entry (replay)
  const lines = logLines(log, seats, coords)
    .concat(noteLines(notes, seats))
    .sort((/** @type {Json} */ a, /** @type {Json} */ b) => a.seq - b.seq);
  return h(
    "div",
    { id: "log" },
    lines
      .filter((/** @type {Json} */ e) => e.lines.length)
      .map((/** @type {Json} */ e) =>
        h(
          "div",
          { class: "entry" + (e.seq === current ? " current" : ""), "data-seq": e.seq, title: e.action },
          e.lines.map((/** @type {Json} */ l) => h("div", { class: "line " + l.cls }, l.text)),
        ),
      ),
  );
}

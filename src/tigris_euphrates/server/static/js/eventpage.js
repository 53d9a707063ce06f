// An event's page (/events/{id}, a private one with ?invite=CODE): its conditions and a
// countdown (to the start, to an arena's end, or the Swiss round), the scoring rule and the
// tie-breaks in words, the signed-in player's own state with the link to their game and the
// join, pause (arena) and withdraw (Swiss) buttons, the live standings, the games to watch and
// the podium once it is over. The page asks the server again every POLL_MS while it is open
// and seen; each part is drawn again only when what it shows changed, so the keyboard's focus
// and a half-done click stay where they are.
import { afterPress, api, app, h } from "./dom.js";
import { tx } from "./words.js";
import { signedIn, titled, words } from "./account.js";
import { countdownText, errorText, factChips, inviteCode, scoringText, tiebreakText } from "./eventwords.js";
import { inviteLine } from "./eventform.js";
import { gamesList, podium, standingsTable } from "./eventtables.js";
/** @typedef {import("./shapes.js").Json} Json */

const POLL_MS = 2000;

export async function eventPage(/** @type {string} */ id) {
  const [{ account }] = await Promise.all([signedIn, words()]);
  const invite = inviteCode(id);
  const url = `/api/events/${id}` + (invite ? "?invite=" + encodeURIComponent(invite) : "");
  /** @type {Json} */
  let ev;
  try {
    ev = await api(url);
  } catch (err) {
    titled(tx("events_title"));
    app.replaceChildren(refusedCard(err));
    return;
  }
  titled(ev.name);
  const parts = {
    head: h("div", { class: "card", id: "event" }),
    me: h("div", { class: "card", id: "event-me" }),
    podium: h("div", { class: "card", id: "event-podium", hidden: true }),
    standings: h("div", { class: "card", id: "event-standings" }),
    games: h("div", { class: "card", id: "event-games" }),
    rules: h("div", { class: "card", id: "event-rules" }),
  };
  app.replaceChildren(
    h(
      "div",
      { class: "events-grid event-page" },
      h("div", {}, parts.head, parts.me, parts.podium, parts.standings, parts.games),
      h("div", {}, parts.rules),
    ),
  );
  /** @type {Record<string, string>} */
  const drawn = {}; // what each part shows, to draw it again only when that changes
  const name = account ? account.name : null;
  /** @type {(part: keyof typeof parts, key: unknown, draw: () => (Node | null)[]) => void} */
  const part = (key, what, draw) => {
    const k = JSON.stringify(what);
    if (drawn[key] === k) return;
    drawn[key] = k;
    parts[key].replaceChildren(...draw().filter(x => x !== null));
  };
  const render = (/** @type {Json} */ e) => {
    ev = e;
    const { standings, games, me, podium: top } = e;
    const summary = { ...e, now: null, standings: null, games: null, me: null, podium: null };
    part("head", summary, () => headParts(e));
    part("me", { me, state: e.state, round: e.round, invite: e.invite, signed: !!account }, () =>
      meParts(e, account, invite, render),
    );
    part("podium", top, () => [h("h3", {}, tx("event_podium")), podium(top)]);
    parts.podium.hidden = !(e.state === "finished" && top.length);
    part("standings", { standings, name }, () => [h("h3", {}, tx("event_standings")), standingsTable(standings, name)]);
    part("games", games, () => [h("h3", {}, tx("event_games_title")), ...gamesList(games)]);
    part("rules", { kind: e.kind, scoring: e.scoring, tiebreaks: e.tiebreaks }, () => rulesParts(e));
    tick();
  };
  // the countdown, every second against the server's clock
  const tick = () => {
    const clock = parts.head.querySelector("#event-clock");
    if (clock) clock.textContent = countdownText(ev);
  };
  render(ev);
  const ticker = setInterval(() => (parts.head.isConnected ? tick() : clearInterval(ticker)), 1000);
  poll(parts.head, url, e => afterPress(() => render(e)));
}

// GET the event every POLL_MS while its page is open and seen; stops once it has left the page
async function poll(/** @type {HTMLElement} */ root, /** @type {string} */ url, /** @type {(e: Json) => void} */ got) {
  const stale = h("p", { class: "muted", id: "event-stale", role: "status" });
  while (root.isConnected) {
    await new Promise(r => setTimeout(r, POLL_MS));
    if (document.hidden || !root.isConnected) continue;
    try {
      const e = await api(url);
      stale.remove();
      got(e);
    } catch (err) {
      // the server away for a moment: said, and asked again; a refusal: said in words
      stale.textContent = /** @type {Json} */ (err).status ? errorText(err) : tx("event_stale");
      if (!stale.isConnected) root.append(stale);
    }
  }
}

function refusedCard(/** @type {unknown} */ err) {
  return h(
    "div",
    { class: "card narrow", id: "event-refused" },
    h("h2", {}, tx("events_title")),
    h("p", { class: "error", role: "alert" }, errorText(err)),
    h("p", {}, h("a", { href: "/events" }, tx("event_back"))),
  );
}

// the name, the conditions, the countdown and the state line (said aloud when it changes)
function headParts(/** @type {Json} */ ev) {
  return [
    h("p", { class: "back" }, h("a", { href: "/events" }, "← " + tx("event_back"))),
    h("h2", { id: "event-name" }, ev.name),
    h("p", { class: "chips" }, factChips(ev)),
    h("p", { id: "event-clock", class: "countdown", role: "timer" }, countdownText(ev)),
    h("p", { id: "event-state", "aria-live": "polite" }, stateText(ev)),
    h(
      "p",
      { class: "muted" },
      tx("event_by", { name: ev.maker }) + " · " + tx("event_entrants_n", { n: ev.entrants }),
      " · " + new Date(ev.starts * 1000).toLocaleString(),
    ),
  ];
}
function stateText(/** @type {Json} */ ev) {
  if (ev.state === "finished") return tx("event_state_finished");
  if (ev.state === "scheduled") return tx("event_state_scheduled");
  return ev.kind === "swiss"
    ? tx("event_state_round", { round: ev.round, rounds: ev.rounds })
    : tx("event_state_arena");
}

// the scoring rule and the tie-breaks, named and explained
function rulesParts(/** @type {Json} */ ev) {
  return [
    h("h3", {}, tx("event_scoring_title")),
    h("p", { id: "event-scoring" }, scoringText(ev)),
    h("h3", {}, tx("event_tiebreaks_title")),
    h(
      "dl",
      { class: "tiebreaks" },
      (ev.tiebreaks || []).flatMap((/** @type {string} */ key) => {
        const [name, text] = tiebreakText(key);
        return [h("dt", { "data-tiebreak": key }, name), h("dd", {}, text)];
      }),
    ),
  ];
}

// the signed-in player's part: where they stand, the way to their game, join / pause /
// withdraw, a refusal in words, and for the maker of a private event its invitation link
function meParts(
  /** @type {Json} */ ev,
  /** @type {Json} */ account,
  /** @type {string | null} */ invite,
  /** @type {(e: Json) => void} */ render,
) {
  const title = h("h3", {}, tx("event_you_title"));
  const share = ev.invite ? inviteLine(ev.id, ev.invite) : null;
  if (!account) {
    const next = "/account?next=" + encodeURIComponent("/events/" + ev.id);
    return [
      title,
      ev.state === "finished" ? null : h("p", {}, h("a", { href: next, id: "event-signin" }, tx("event_sign_in_join"))),
    ];
  }
  const me = ev.me || { entered: false, state: null, game: null, bye: false };
  const over = ev.state === "finished",
    arena = ev.kind === "arena";
  const error = h("p", { class: "error", role: "alert" });
  const act = (/** @type {string} */ what, /** @type {string} */ text, /** @type {Json} */ body, cls = "") =>
    h(
      "button",
      {
        type: "button",
        id: "event-" + what,
        class: cls || null,
        onclick: async e => {
          const button = /** @type {HTMLButtonElement} */ (e.currentTarget);
          button.disabled = true;
          error.textContent = "";
          try {
            render(await api(`/api/events/${ev.id}/${what === "join" ? "join" : "leave"}`, body));
            /** @type {HTMLElement | null} */ (
              document.querySelector("#event-me a.gotogame, #event-me button")
            )?.focus();
          } catch (err) {
            error.textContent = errorText(err);
            button.disabled = false;
          }
        },
      },
      text,
    );
  // Swiss: a late join up to round 2; an arena: any time before its end (a paused one rejoins)
  const mayJoin =
    !over &&
    (arena ? !me.entered || me.state === "paused" : !me.entered && (ev.state === "scheduled" || ev.round <= 2));
  const buttons = [
    mayJoin ? act("join", tx(me.entered ? "event_rejoin" : "event_join"), { invite }, "primary") : null,
    !over && me.entered && me.state === "active" && arena ? act("pause", tx("event_pause"), {}) : null,
    ...(!over && me.entered && me.state === "active" && !arena ? withdraw(act) : []),
  ];
  return [
    title,
    h("p", { id: "event-mystate", "aria-live": "polite" }, myStateText(ev, me)),
    me.game
      ? h("p", {}, h("a", { href: "/game/" + me.game, class: "gotogame", id: "event-game" }, tx("event_go_game")))
      : null,
    h("div", { class: "actions" }, buttons),
    error,
    share,
  ];
}
// withdrawing from a Swiss tournament is for good: the first press asks, "Yes" withdraws
function withdraw(/** @type {(what: string, text: string, body: Json) => HTMLButtonElement} */ act) {
  const ask = h("button", { type: "button", id: "event-withdraw" }, tx("event_withdraw"));
  const yes = act("leave", tx("event_withdraw_yes"), {});
  const no = h("button", { type: "button", id: "event-withdraw-no" }, tx("event_withdraw_no"));
  const sure = h("span", { class: "confirm", hidden: true }, tx("event_withdraw_sure") + " ", yes, " ", no);
  ask.onclick = () => {
    ask.hidden = true;
    sure.hidden = false;
    yes.focus();
  };
  no.onclick = () => {
    sure.hidden = true;
    ask.hidden = false;
    ask.focus();
  };
  return [ask, sure];
}
function myStateText(/** @type {Json} */ ev, /** @type {Json} */ me) {
  if (!me.entered) return ev.state === "finished" ? tx("event_you_not_played") : tx("event_you_out");
  if (me.state === "withdrawn") return tx("event_you_withdrawn");
  if (me.state === "paused") return tx("event_you_paused");
  if (ev.state === "finished") return tx("event_you_done");
  if (me.game) return tx("event_you_playing");
  if (me.bye) return tx("event_you_bye");
  return ev.state === "scheduled" ? tx("event_you_in") : tx("event_you_waiting");
}

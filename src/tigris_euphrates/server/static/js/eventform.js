// The form that makes a live event (/events): its kind, name, players a game, its games'
// ruleset and variants (the new game's choices, newgame.js), pace, start, length (an arena's
// minutes, a Swiss tournament's rounds), rating range, bot accounts, privacy, and for an admin
// the repeat. A player who is not an admin makes private events only (the server's rule, said
// beside the box). A private event made shows its invitation link with a copy button.
import { api, h } from "./dom.js";
import { tx } from "./words.js";
import { clockNow, errorText } from "./eventwords.js";
import { ruleFields } from "./newgame.js";
/** @typedef {import("./shapes.js").Json} Json */

// a labelled field on a line of its own
const field = (
  /** @type {string} */ label,
  /** @type {HTMLElement} */ input,
  /** @type {string | null} */ hint = null,
) =>
  h(
    "p",
    { class: "field" },
    h("label", {}, label + " ", input),
    hint ? h("span", { class: "muted" }, " " + hint) : null,
  );
const number = (/** @type {string} */ id, /** @type {number | string} */ value, /** @type {Json} */ attrs) =>
  h("input", { type: "number", id, name: id, value, class: "num", ...attrs });
const box = (/** @type {string} */ id, /** @type {boolean} */ checked, /** @type {boolean} */ disabled = false) =>
  h("input", { type: "checkbox", id, name: id, checked, disabled });
// a number field's value, null when left empty
const orNull = (/** @type {HTMLInputElement} */ input) => (input.value.trim() === "" ? null : +input.value);

// the form's inputs; `admin`: a player who is not one makes private events only; `meta`: the
// server's settings (the rulesets and their facts)
function inputs(/** @type {boolean} */ admin, /** @type {Json} */ meta) {
  const kind = h(
    "select",
    { id: "ev-kind", name: "kind" },
    h("option", { value: "arena" }, tx("event_kind_arena")),
    h("option", { value: "swiss" }, tx("event_kind_swiss")),
  );
  return {
    kind,
    name: h("input", { id: "ev-name", name: "name", required: true, minlength: 3, maxlength: 60 }),
    players: h(
      "select",
      { id: "ev-players", name: "players" },
      [2, 3, 4].map(n => h("option", { value: n }, tx("event_players_n", { n }))),
    ),
    rules: ruleFields(meta, "ev-"),
    base: number("ev-base", 5, { min: 1, max: 60, step: "any", required: true }),
    increment: number("ev-increment", 3, { min: 0, max: 60, step: "any", required: true }),
    start: number("ev-start", 5, { min: 0, max: 10080, step: 1, required: true }),
    minutes: number("ev-minutes", 60, { min: 10, max: 720, step: 1, required: true }),
    rounds: number("ev-rounds", 5, { min: 1, max: 15, step: 1, required: true }),
    ratingMin: number("ev-rating-min", "", { min: 0, max: 5000, step: 1 }),
    ratingMax: number("ev-rating-max", "", { min: 0, max: 5000, step: 1 }),
    bots: box("ev-bots", false),
    priv: box("ev-private", !admin, !admin),
    repeat: number("ev-repeat", "", { min: 60, max: 40320, step: 1 }),
  };
}
/** @typedef {ReturnType<typeof inputs>} Inputs */

// the ruleset and the variants: the game's options as the new-game form gives them, the
// ruleset taken out and only what differs from a plain game's choices kept (a default board or
// an unticked box is no variant)
function rulesOf(/** @type {Inputs} */ f, /** @type {Json} */ meta, /** @type {Json} */ plain) {
  const { ruleset = meta.default_ruleset, ...chosen } = f.rules.options();
  /** @type {Json} */
  const options = Object.fromEntries(Object.entries(chosen).filter(([k, v]) => v !== plain[k]));
  return { ruleset, options };
}

// what POST /api/events takes, from the inputs (the start against the server's clock)
const bodyOf = (/** @type {Inputs} */ f, /** @type {boolean} */ admin, /** @type {Json} */ rules) => ({
  kind: f.kind.value,
  name: f.name.value.trim(),
  players: +f.players.value,
  ...rules,
  pace: { base: +f.base.value * 60, increment: +f.increment.value },
  starts: clockNow() + +f.start.value * 60,
  ...(f.kind.value === "arena" ? { minutes: +f.minutes.value } : { rounds: +f.rounds.value }),
  rating_min: orNull(f.ratingMin),
  rating_max: orNull(f.ratingMax),
  bots: f.bots.checked,
  private: f.priv.checked,
  ...(admin ? { repeat_minutes: orNull(f.repeat) } : {}),
});

// the labelled fields, an arena's minutes or a Swiss tournament's rounds shown by the kind
function fields(/** @type {Inputs} */ f, /** @type {boolean} */ admin) {
  const minutesField = field(tx("event_field_minutes"), f.minutes),
    roundsField = field(tx("event_field_rounds"), f.rounds);
  const show = () => {
    const arena = f.kind.value === "arena";
    minutesField.hidden = f.minutes.disabled = !arena;
    roundsField.hidden = f.rounds.disabled = arena;
  };
  f.kind.addEventListener("change", show);
  show();
  return [
    field(tx("event_field_kind"), f.kind),
    field(tx("event_field_name"), f.name),
    field(tx("event_col_players"), f.players),
    ...f.rules.el,
    h(
      "p",
      { class: "field" },
      h("label", {}, tx("event_field_base") + " ", f.base),
      " ",
      h("label", {}, "+ ", f.increment, " " + tx("event_field_increment")),
    ),
    field(tx("event_field_start"), f.start),
    minutesField,
    roundsField,
    h(
      "p",
      { class: "field" },
      h("label", {}, tx("event_field_rating_min") + " ", f.ratingMin),
      " ",
      h("label", {}, tx("event_field_rating_max") + " ", f.ratingMax),
      h("br"),
      h("span", { class: "muted" }, tx("event_field_rating_hint")),
    ),
    h("p", { class: "field" }, h("label", {}, f.bots, " " + tx("event_field_bots"))),
    h("p", { class: "field" }, h("label", {}, f.priv, " " + tx("event_field_private"))),
    admin ? null : h("p", { class: "muted" }, tx("event_make_private_note")),
    admin ? field(tx("event_field_repeat"), f.repeat, tx("event_field_repeat_hint")) : null,
  ];
}

export function eventForm(/** @type {Json} */ account, /** @type {Json} */ meta) {
  if (!account)
    return h(
      "div",
      { class: "card", id: "makeevent" },
      h("h2", {}, tx("event_make_title")),
      h("p", {}, h("a", { href: "/account?next=/events", id: "event-signin" }, tx("event_make_signin"))),
    );
  const admin = !!account.admin,
    f = inputs(admin, meta);
  // a plain game's choices, as the form starts: what the variants differ from
  const plain = f.rules.options();
  const error = h("p", { class: "error", role: "alert" });
  const made = h("div", { id: "event-made", "aria-live": "polite" });
  const submit = h("button", { class: "primary", type: "submit" }, tx("event_make"));
  const send = async (/** @type {SubmitEvent} */ e) => {
    e.preventDefault();
    error.textContent = "";
    submit.disabled = true;
    try {
      const ev = await api("/api/events", bodyOf(f, admin, rulesOf(f, meta, plain)));
      made.replaceChildren(madeNote(ev));
      /** @type {HTMLElement} */ (made.querySelector("a, button")).focus();
    } catch (err) {
      error.textContent = errorText(err);
    } finally {
      submit.disabled = false;
    }
  };
  return h(
    "form",
    { class: "card", id: "makeevent", onsubmit: send },
    h("h2", {}, tx("event_make_title")),
    fields(f, admin),
    error,
    submit,
    made,
  );
}

// what was made: a link to its page, and a private event's invitation link to copy
function madeNote(/** @type {Json} */ ev) {
  const page = "/events/" + ev.id;
  const out = h(
    "div",
    { class: "made" },
    h("p", {}, tx("event_made") + " ", h("a", { href: page, id: "event-made-link" }, ev.name)),
  );
  if (ev.private && ev.invite) out.append(inviteLine(ev.id, ev.invite));
  return out;
}

// the invitation link of a private event, with a button that copies it
export function inviteLine(/** @type {string} */ id, /** @type {string} */ invite) {
  const link = `${location.origin}/events/${id}?invite=${encodeURIComponent(invite)}`;
  /** @type {HTMLInputElement} */
  const input = h("input", {
    id: "invite-link-" + id,
    class: "invite-link",
    value: link,
    readonly: true,
    onclick: e => /** @type {HTMLInputElement} */ (e.currentTarget).select(),
  });
  const said = h("span", { class: "muted", role: "status" });
  const copy = h(
    "button",
    {
      type: "button",
      class: "copy-invite",
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
        } catch {
          input.select();
          document.execCommand("copy");
        }
        said.textContent = " " + tx("link_copied");
      },
    },
    tx("copy_link"),
  );
  return h(
    "p",
    { class: "invite" },
    h("label", { for: input.id }, tx("event_invite_link")),
    " ",
    input,
    " ",
    copy,
    said,
  );
}

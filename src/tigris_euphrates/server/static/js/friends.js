// The signed-in account's corner of the lobby: its direct challenges (challenge.js), its
// invitations (take the seat, or decline), whom it follows and who of them is online now
// (each one a click from a challenge), and whom it blocked (no quick match with them, no
// invitations or challenges from them, their table chat hidden). Shown from the lobby
// socket's "me" frames (meet.js), changed by posts whose effect comes back on the same
// socket. A profile page offers the same: follow, block, challenge (profileActions).
import { afterPress, api, h, toast } from "./dom.js";
import { tx } from "./words.js";
import { challengeButton, challengeDialog, challengesPart } from "./challenge.js";
/** @typedef {import("./shapes.js").Json} Json */

const post = (/** @type {string} */ path, /** @type {Json} */ body) =>
  api(path, body).catch(e => {
    toast(e.message);
    return null;
  });
// a list's items, or one muted line that says it is empty (`key`: its words)
const listOr = (/** @type {Json} */ items, /** @type {string} */ key, cls = "") =>
  items.length ? items : [h("li", { class: "muted" + cls }, tx(key))];
// an invitation to a table: take the seat (`sitAt`) or decline
const inviteItem = (/** @type {Json} */ i, /** @type {Json} */ sitAt) =>
  h(
    "li",
    {},
    tx("invited_by", { name: i.by }),
    " ",
    h("button", { class: "accept", onclick: () => sitAt(i.table) }, tx("sit")),
    " ",
    h("button", { class: "decline", onclick: () => post(`/api/invites/${i.id}/decline`, {}) }, tx("decline")),
  );
// a person followed: online or not, a challenge, unfollow
const friendItem = (/** @type {Json} */ f) =>
  h(
    "li",
    { class: f.online ? "online" : "offline" },
    h("span", { class: "dot", "aria-hidden": "true" }),
    " ",
    h("a", { href: "/players/" + encodeURIComponent(f.name) }, f.name),
    " ",
    h("span", { class: "muted" }, f.online ? tx("online") : tx("offline")),
    " ",
    challengeButton(f.name, { class: "challenge-friend" }),
    " ",
    h("button", { class: "unfollow", onclick: () => post("/api/social/unfollow", { name: f.name }) }, tx("unfollow")),
  );
const blockedItem = (/** @type {string} */ name) =>
  h(
    "li",
    {},
    name,
    " ",
    h("button", { class: "unblock", onclick: () => post("/api/social/unblock", { name }) }, tx("unblock")),
  );
export function friendsCard(/** @type {Json} */ account) {
  const invites = h("ul", { id: "invites" }),
    friends = h("ul", { id: "friends" }),
    blocked = h("ul", { id: "blocked" });
  const who = h("input", { id: "social-name", placeholder: tx("name"), maxlength: 40 });
  const act = (/** @type {Json} */ verb) => async (/** @type {Event} */ e) => {
    e.preventDefault();
    const name = who.value.trim();
    if (name && (await post(`/api/social/${verb}`, { name }))) who.value = "";
  };
  const challenges = challengesPart(account.name);
  const el = h(
    "div",
    { class: "card", id: "people" },
    h("h2", {}, tx("people")),
    h("h3", {}, tx("challenges")),
    challenges.el,
    h("h3", {}, tx("invitations")),
    invites,
    h("h3", {}, tx("friends")),
    friends,
    h(
      "form",
      { class: "social-form", onsubmit: act("follow") },
      who,
      " ",
      h("button", { id: "follow" }, tx("follow")),
      " ",
      h("button", { id: "block", type: "button", onclick: act("block") }, tx("block")),
      " ",
      h(
        "button",
        { id: "challenge-by-name", type: "button", onclick: () => challengeDialog([who.value.trim()].filter(Boolean)) },
        tx("challenge_person"),
      ),
    ),
    h("h3", {}, tx("blocked")),
    blocked,
  );
  const show = (/** @type {Json} */ m, /** @type {Json} */ sitAt) =>
    afterPress(() => {
      challenges.show(m.challenges || []);
      invites.replaceChildren(
        ...listOr(
          m.invites.map((/** @type {number} */ i) => inviteItem(i, sitAt)),
          "no_invitations",
        ),
      );
      friends.replaceChildren(...listOr(m.friends.map(friendItem), "no_friends"));
      blocked.replaceChildren(...listOr(m.blocked.map(blockedItem), "no_blocked", " none"));
    });
  return { el, show };
}
// follow or unfollow, block or unblock and challenge another person, on their profile
// (the account's own friends and blocks read once, then as each post answers)
export function profileActions(/** @type {string} */ name) {
  const box = h("p", { id: "profile-actions", class: "actions" });
  const draw = (/** @type {Json} */ following, /** @type {Json} */ blocking) =>
    box.replaceChildren(
      h(
        "button",
        {
          id: following ? "profile-unfollow" : "profile-follow",
          onclick: () => change(following ? "unfollow" : "follow"),
        },
        tx(following ? "unfollow" : "follow"),
      ),
      " ",
      h(
        "button",
        { id: blocking ? "profile-unblock" : "profile-block", onclick: () => change(blocking ? "unblock" : "block") },
        tx(blocking ? "unblock" : "block"),
      ),
      " ",
      ...(blocking ? [] : [challengeButton(name, { id: "profile-challenge", class: "primary" })]),
    );
  const read = async () => {
    const me = await api("/api/social").catch(() => null);
    if (me)
      draw(
        me.friends.some((/** @type {Json} */ f) => f.name === name),
        me.blocked.includes(name),
      );
  };
  const change = async (/** @type {Json} */ verb) => {
    if (await post(`/api/social/${verb}`, { name })) await read();
  };
  read();
  return box;
}

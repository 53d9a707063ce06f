// The signed-in account's corner of the lobby: its invitations (take the seat, or decline),
// whom it follows and who of them is online now, and whom it blocked (no quick match with
// them, no invitations from them, their table chat hidden). Shown from the lobby socket's
// "me" frames (meet.js), changed by posts whose effect comes back on the same socket.
import { afterPress, api, h, toast } from "./dom.js";
import { tx } from "./words.js";

const post = (path, body) => api(path, body).catch(e => { toast(e.message); return null; });
export function friendsCard() {
  const invites = h("ul", { id: "invites" }), friends = h("ul", { id: "friends" }), blocked = h("ul", { id: "blocked" });
  const who = h("input", { id: "social-name", placeholder: tx("name"), maxlength: 40 });
  const act = verb => async e => {
    e.preventDefault(); const name = who.value.trim();
    if (name && await post(`/api/social/${verb}`, { name })) who.value = "";
  };
  const el = h("div", { class: "card", id: "people" }, h("h2", {}, tx("people")),
    h("h3", {}, tx("invitations")), invites, h("h3", {}, tx("friends")), friends,
    h("form", { onsubmit: act("follow") }, who, " ", h("button", { id: "follow" }, tx("follow")), " ",
      h("button", { id: "block", type: "button", onclick: act("block") }, tx("block"))),
    h("h3", {}, tx("blocked")), blocked);
  const show = (m, sitAt) => afterPress(() => {
    invites.replaceChildren(...(m.invites.length ? m.invites.map(i => h("li", {}, tx("invited_by", { name: i.by }), " ",
      h("button", { class: "accept", onclick: () => sitAt(i.table) }, tx("sit")), " ",
      h("button", { class: "decline", onclick: () => post(`/api/invites/${i.id}/decline`, {}) }, tx("decline"))))
      : [h("li", { class: "muted" }, tx("no_invitations"))]));
    friends.replaceChildren(...(m.friends.length ? m.friends.map(f => h("li", { class: f.online ? "online" : "offline" },
      h("span", { class: "dot", "aria-hidden": "true" }), " ", h("a", { href: "/players/" + encodeURIComponent(f.name) }, f.name),
      " ", h("span", { class: "muted" }, f.online ? tx("online") : tx("offline")), " ",
      h("button", { class: "unfollow", onclick: () => post("/api/social/unfollow", { name: f.name }) }, tx("unfollow"))))
      : [h("li", { class: "muted" }, tx("no_friends"))]));
    blocked.replaceChildren(...(m.blocked.length ? m.blocked.map(name => h("li", {}, name, " ",
      h("button", { class: "unblock", onclick: () => post("/api/social/unblock", { name }) }, tx("unblock"))))
      : [h("li", { class: "muted none" }, tx("no_blocked"))]));
  });
  return { el, show };
}

// A signed-in player's e-mail notifications: an e-mail when it becomes their move in a
// turn-based game (and they have no page open on it). Shown in the lobby; guests see nothing.
import { h, toast } from "./dom.js";

export async function notifyCard() {
  const who = await fetch("/api/account").then(r => r.ok ? r.json() : null).catch(() => null);
  if (!who || !who.account) return null;
  const now = await fetch("/api/account/notifications").then(r => r.ok ? r.json() : null).catch(() => null);
  if (!now) return null;
  const email = h("input", { type: "email", id: "notify-email", value: now.email || "", placeholder: "you@example.org", autocomplete: "email" });
  const on = h("input", { type: "checkbox", id: "notify-on" });
  on.checked = now.enabled;
  const state = h("p", { class: "muted", id: "notify-state" }, now.enabled ? `E-mails go to ${now.email}.` : "No e-mails.");
  const save = h("button", { id: "notify-save", onclick: async () => {
    const body = { enabled: on.checked };
    if (email.value.trim()) body.email = email.value.trim();
    const r = await fetch("/api/account/notifications", { method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": who.csrf }, body: JSON.stringify(body) });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) return toast(data.message || r.statusText);
    state.textContent = data.enabled ? `E-mails go to ${data.email}.` : "No e-mails.";
  } }, "Save");
  return h("div", { class: "card", id: "notify" }, h("h2", {}, "Notifications"),
    h("p", {}, h("label", {}, on, " E-mail me when it is my move in a turn-based game")),
    h("p", {}, h("label", {}, "E-mail ", email), " ", save), state,
    now.configured ? null : h("p", { class: "muted" }, "This server is not set up to send e-mail: none will be sent."),
    h("p", { class: "muted" }, "Every e-mail has a link that turns them off in one click."));
}

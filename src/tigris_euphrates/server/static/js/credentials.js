// An account's password and address: the cards of the signed-in account page (change the
// password, change the address), the "forgot your password?" form of the sign-in page, and
// the pages the e-mailed links open (/reset-password#TOKEN, /change-email#TOKEN). The
// token travels after "#": the browser sends it to no server in the address; the page
// posts it, then drops it from the address bar.
import { api, app, h } from "./dom.js";
import { loadCatalogue, tx } from "./words.js";
/** @typedef {import("./shapes.js").Json} Json */

const titled = (/** @type {string} */ text) => {
  document.title = text + " · Tigris & Euphrates";
};
// the link's token, taken out of the address (a reload or a shared screen shows none)
function linkToken() {
  const token = location.hash.slice(1);
  if (token) history.replaceState(null, "", location.pathname);
  return /^[A-Za-z0-9_.-]{20,200}$/.test(token) ? token : "";
}
const field = (/** @type {string} */ label, /** @type {Json} */ input) =>
  h("p", {}, h("label", {}, label + " ", input));
const secret = (/** @type {string} */ name, /** @type {Json} */ auto) =>
  h("input", { name, type: "password", required: true, maxlength: 200, autocomplete: auto });
// a form card: `send` returns the text to show (or throws); the button waits meanwhile
function formCard(
  /** @type {Json} */ id,
  /** @type {string} */ title,
  /** @type {Json} */ fields,
  /** @type {Json} */ button,
  /** @type {Json} */ send,
  /** @type {Json} */ hint = null,
) {
  const said = h("p", { class: "said", role: "status" }),
    error = h("p", { class: "error", role: "alert" });
  const submit = h("button", { class: "primary", type: "submit" }, button);
  const f = h(
    "form",
    {
      id,
      class: "card",
      onsubmit: async e => {
        e.preventDefault();
        submit.disabled = true;
        error.textContent = "";
        said.textContent = "";
        try {
          said.textContent = await send();
        } catch (err) {
          error.textContent = /** @type {Error} */ (err).message;
        }
        submit.disabled = false;
      },
    },
    h("h2", {}, title),
    fields,
    error,
    said,
    submit,
    hint ? h("p", { class: "muted" }, hint) : null,
  );
  return f;
}
// a refusal in the page's words where it has some (the server's message otherwise)
const refused = (/** @type {Json} */ err, /** @type {Json} */ words) =>
  Object.assign(new Error(words[err.status] ? tx(words[err.status]) : err.message), { status: err.status });

export function passwordCard() {
  const current = secret("current", "current-password"),
    fresh = secret("password", "new-password");
  return formCard(
    "password",
    tx("password_title"),
    [field(tx("password_current"), current), field(tx("password_new"), fresh)],
    tx("password_change"),
    async () => {
      try {
        await api("/api/account/password", { current: current.value, password: fresh.value });
      } catch (err) {
        throw refused(err, { 403: "password_wrong" });
      }
      current.value = fresh.value = "";
      return tx("password_changed");
    },
  );
}

export async function emailCard() {
  const now = await api("/api/account/email");
  const state = (/** @type {Json} */ s) => [
    h("p", { id: "email-now" }, s.email && s.confirmed ? tx("email_is", { email: s.email }) : tx("email_none")),
    s.pending ? h("p", { id: "email-pending", class: "muted" }, tx("email_pending", { email: s.pending })) : null,
  ];
  const shown = h("div", {}, state(now));
  const email = h("input", {
    name: "email",
    type: "email",
    required: true,
    maxlength: 254,
    autocomplete: "email",
    placeholder: "you@example.org",
  });
  const password = secret("password", "current-password");
  const card = formCard(
    "email",
    tx("email_title"),
    [shown, field(tx("email_new"), email), field(tx("password_current"), password)],
    tx("email_change"),
    async () => {
      let s;
      try {
        s = await api("/api/account/email", { email: email.value.trim(), password: password.value });
      } catch (err) {
        throw refused(err, { 403: "password_wrong" });
      }
      shown.replaceChildren(...state(s).filter(x => x !== null));
      password.value = "";
      return "";
    },
  );
  if (!now.configured) {
    /** @type {HTMLButtonElement} */ (card.querySelector("button")).disabled = true;
    card.append(h("p", { class: "muted" }, tx("email_unconfigured")));
  }
  return card;
}

export function forgotCard() {
  const who = h("input", { name: "who", required: true, maxlength: 254, autocomplete: "username" });
  return formCard(
    "forgot",
    tx("forgot_title"),
    [field(tx("forgot_who"), who)],
    tx("forgot_send"),
    async () => {
      try {
        await api("/api/account/forgot", { who: who.value.trim() });
      } catch (err) {
        throw refused(err, { 409: "forgot_off" });
      }
      return tx("forgot_sent");
    },
    tx("forgot_hint"),
  );
}

const signInLink = () => h("p", {}, h("a", { href: "/account", id: "to-signin" }, tx("sign_in")));

export async function resetPage() {
  const token = linkToken();
  await loadCatalogue(null);
  titled(tx("reset_title"));
  const bad = () =>
    app.replaceChildren(
      h(
        "div",
        { class: "card narrow", id: "reset" },
        h("h2", {}, tx("reset_title")),
        h("p", { class: "error", role: "alert" }, tx("link_bad")),
        signInLink(),
      ),
    );
  const who = token ? await api("/api/account/reset/check", { token }).catch(() => null) : null;
  if (!who) return bad();
  const fresh = secret("password", "new-password"),
    again = secret("again", "new-password");
  const form = formCard(
    "reset",
    tx("reset_for", { name: who.name }),
    [field(tx("password_new"), fresh), field(tx("reset_repeat"), again)],
    tx("reset_save"),
    async () => {
      if (fresh.value !== again.value) throw new Error(tx("reset_mismatch"));
      try {
        await api("/api/account/reset", { token, password: fresh.value });
      } catch (err) {
        if (/** @type {Error & {status?: number}} */ (err).status === 400) bad();
        throw err;
      }
      form.replaceWith(
        h(
          "div",
          { class: "card narrow", id: "reset" },
          h("h2", {}, tx("reset_title")),
          h("p", { id: "reset-done" }, tx("reset_done", { name: who.name })),
          signInLink(),
        ),
      );
      return "";
    },
  );
  form.classList.add("narrow");
  app.replaceChildren(form);
}

export async function changeEmailPage() {
  const token = linkToken();
  await loadCatalogue(null);
  titled(tx("change_email_title"));
  const said = h("p", { role: "status" }, tx("change_email_text"));
  const button = h(
    "button",
    {
      class: "primary",
      id: "confirm-email",
      onclick: async () => {
        button.disabled = true;
        try {
          const r = await api("/api/account/email/confirm", { token });
          said.textContent = tx("change_email_done", { email: r.email });
          button.remove();
        } catch {
          said.textContent = tx("link_bad");
          said.className = "error";
          button.remove();
        }
      },
    },
    tx("change_email_confirm"),
  );
  app.replaceChildren(
    h(
      "div",
      { class: "card narrow", id: "change-email" },
      h("h2", {}, tx("change_email_title")),
      token ? said : h("p", { class: "error", role: "alert" }, tx("link_bad")),
      token ? h("p", {}, button) : null,
    ),
  );
}

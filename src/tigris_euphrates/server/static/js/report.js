// Reports to the moderators: a small "Report" button beside a chat line written by someone
// else, or on another player's profile, that opens an inline form asking for a short reason
// and posts it (POST /api/reports, with the CSRF header of every post). The server's answer
// (thanks, or why not: already reported, too many reports) is a toast, read out by screen
// readers. Only a signed-in player reports: guests get no control.
import { api, h, toast } from "./dom.js";
import { tx } from "./words.js";
/** @typedef {import("./shapes.js").Json} Json */

// the server's longest reason
const REASON_MAX = 200;
// the form open now, by its key, and what is typed in it: the chat is drawn again at each
// line and each move, and the form survives that (live.js keeps its focus)
/** @type {{key: string | null, text: string}} */
const open = { key: null, text: "" };
// what this page reported: its button says so and stays off
const sent = new Set();

// The report control of `key` (one per target): `text` the button's words, `label` its name
// for screen readers (what it reports), `target` the report's body without its reason.
export function reportControl(
  /** @type {string} */ key,
  /** @type {string} */ text,
  /** @type {string} */ label,
  /** @type {Json} */ target,
) {
  const box = h("span", { class: "report", "data-report": key });
  const formId = "report-form-" + key.replace(/[^A-Za-z0-9_-]/g, "-");
  const button = h(
    "button",
    {
      type: "button",
      class: "reportbtn",
      "aria-label": label,
      "aria-expanded": open.key === key ? "true" : "false",
      "aria-controls": formId,
      disabled: sent.has(key),
      onclick: () => {
        open.key = open.key === key ? null : key;
        open.text = "";
        closeOthers();
        const again = reportControl(key, text, label, target);
        box.replaceWith(again);
        const input = /** @type {HTMLElement | null} */ (again.querySelector("#report-reason"));
        if (input) input.focus();
      },
    },
    sent.has(key) ? tx("reported") : text,
  );
  box.append(button);
  if (open.key === key && !sent.has(key))
    box.append(
      reasonForm(
        formId,
        label,
        target,
        () => {
          box.replaceWith(reportControl(key, text, label, target));
          const again = /** @type {HTMLElement | null} */ (
            document.querySelector(`[data-report="${CSS.escape(key)}"] .reportbtn`)
          );
          if (again) again.focus();
        },
        key,
      ),
    );
  return box;
}

// one form at a time: opening one closes the form open elsewhere on the page
function closeOthers() {
  for (const form of document.querySelectorAll(".reportform")) {
    const button = form.parentElement?.querySelector(".reportbtn");
    if (button) button.setAttribute("aria-expanded", "false");
    form.remove();
  }
}

// the inline form: the reason (required, at most REASON_MAX characters), Send and Cancel;
// Escape cancels too. `done` draws the control again (closed).
function reasonForm(
  /** @type {Json} */ id,
  /** @type {string} */ label,
  /** @type {Json} */ target,
  /** @type {Json} */ done,
  /** @type {string} */ key,
) {
  const input = h("input", {
    id: "report-reason",
    name: "reason",
    required: true,
    maxlength: REASON_MAX,
    autocomplete: "off",
    value: open.text,
  });
  input.addEventListener("input", () => {
    open.text = input.value;
  });
  const close = () => {
    open.key = null;
    open.text = "";
    done();
  };
  input.addEventListener("keydown", e => {
    e.stopPropagation();
    if (e.key === "Escape") {
      e.preventDefault();
      close();
    }
  });
  const form = h(
    "form",
    {
      id,
      class: "reportform",
      "aria-label": label,
      onsubmit: async e => {
        e.preventDefault();
        const reason = input.value.trim();
        if (!reason) {
          input.focus();
          return;
        }
        const send = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]"));
        send.disabled = true;
        try {
          await api("/api/reports", { ...target, reason });
          sent.add(key);
          toast(tx("report_thanks"));
          close();
        } catch (err) {
          toast(/** @type {Error} */ (err).message);
          send.disabled = false;
          if (/** @type {Error & {status?: number}} */ (err).status === 409) {
            sent.add(key);
            close();
          } // reported already: nothing more to send
        }
      },
    },
    h("label", {}, tx("report_reason") + " ", input),
    h("button", { type: "submit", class: "primary" }, tx("report_send")),
    h("button", { type: "button", onclick: close }, tx("cancel")),
  );
  return form;
}

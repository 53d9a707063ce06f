// The shapes the page's modules share, for TypeScript's checker (tsconfig.json, `npm run lint`):
// JSDoc types only. Nothing here runs and no page loads this file; a module names a shape as
// import("./shapes.js").Name.

/**
 * A value of the server's JSON (a game's view, a frame, an API answer), read field by field
 * where it is used; its schema is the server's (/openapi.json).
 * @typedef {any} Json
 */
/**
 * A template's fields, by name.
 * @typedef {Record<string, unknown>} Fields
 */
/**
 * A seat's name by its number.
 * @typedef {(seat: number) => string} NameOf
 */
/**
 * What h() and svg() take as attributes: a value, or a listener for "on…" (null, undefined
 * and false: left out).
 * @typedef {Record<string, unknown> & Listeners} Attrs
 */
/**
 * The listeners h() adds, by the attribute that names them.
 * @typedef {object} Listeners
 * @property {((e: MouseEvent) => unknown) | null} [onclick]
 * @property {((e: SubmitEvent) => unknown) | null} [onsubmit]
 * @property {((e: Event) => unknown) | null} [onchange]
 * @property {((e: Event) => unknown) | null} [oninput]
 * @property {((e: KeyboardEvent) => unknown) | null} [onkeydown]
 */
/**
 * What h() takes as children: nodes, texts, numbers and lists of them (null, undefined and
 * false: left out).
 * @typedef {Node | string | number | boolean | null | undefined | unknown[]} Kid
 */
/**
 * A connection of the game page: one seat held here, or one spectator (socket.js).
 * @typedef {object} Conn
 * @property {string | null} token the seat's token (null: a spectator or an account's seat)
 * @property {boolean} account it opened a seat of the signed-in account
 * @property {WebSocket | null} ws its socket
 * @property {Json} msg the last view frame it heard (null: none yet)
 * @property {number | null} seat the seat it plays (null: a spectator)
 * @property {Json[]} log the game's log as far as heard
 * @property {Json[]} chat the table's chat lines
 * @property {number} retry the wait before the next reconnection (ms)
 * @property {boolean} fresh its view is the server's latest
 * @property {number} tries the connections tried
 * @property {number} heard when it last heard the server (ms)
 * @property {number | null} sent the step of the move sent and not yet answered
 * @property {boolean} [dead] refused for good
 * @property {string | null} [deadReason] why, in the server's words
 * @property {boolean} [signIn] a rated seat that needs an account
 * @property {Json} [hint] the last hint heard
 * @property {Json} [hintAsked] the hint asked for and not yet heard
 */
export {};

// ESLint's checks of the page's JavaScript (src/tigris_euphrates/server/static/js): the recommended
// rules for ES modules run in the browser. Formatting is Prettier's (.prettierrc.json), types are
// TypeScript's (tsconfig.json).
import js from "@eslint/js";
import globals from "globals";

export default [
  { files: ["src/tigris_euphrates/server/static/js/**/*.js"], ...js.configs.recommended },
  {
    files: ["src/tigris_euphrates/server/static/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
      "no-implicit-globals": "error",
      "no-shadow": "error",
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
    },
  },
];

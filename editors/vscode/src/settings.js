// The `pcl.*` settings the server reads, under their keys without the `pcl.` prefix: the
// same object goes out as initializationOptions, as the answer to the server's
// workspace/configuration request for the `pcl` section, and with
// workspace/didChangeConfiguration.
"use strict";

/** Each setting passed to the server, with its default. `serverPath` is the client's own. */
const SERVER_SETTINGS = {
  schemaPath: [],
  skipResourceTypecheck: false,
  skipInvokeTypecheck: false,
  skipRangeTypecheck: false,
  allowMissingVariables: false,
  allowMissingProperties: false,
  lenient: false,
  fetchSchemas: false,
};

/**
 * The server's settings from `config`, anything with `get(key, default)` (a
 * `vscode.WorkspaceConfiguration` for the `pcl` section). Values of the wrong type fall
 * back to the default, so a typo in settings.json cannot make the server reject them all.
 */
function serverSettings(config) {
  const res = {};
  for (const [key, fallback] of Object.entries(SERVER_SETTINGS)) {
    const value = config.get(key, fallback);
    if (Array.isArray(fallback)) {
      res[key] = Array.isArray(value) ? value.filter((it) => typeof it === "string") : [];
    } else {
      res[key] = typeof value === typeof fallback ? value : fallback;
    }
  }
  return res;
}

module.exports = { SERVER_SETTINGS, serverSettings };

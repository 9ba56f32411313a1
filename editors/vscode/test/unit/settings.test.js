"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { SERVER_SETTINGS, serverSettings } = require("../../src/settings");
const manifest = require("../../package.json");

/** A `WorkspaceConfiguration`-like object over plain values. */
function config(values) {
  return { get: (key, fallback) => (key in values ? values[key] : fallback) };
}

test("defaults: no schema folders, every leniency off", () => {
  assert.deepEqual(serverSettings(config({})), {
    schemaPath: [],
    skipResourceTypecheck: false,
    skipInvokeTypecheck: false,
    skipRangeTypecheck: false,
    allowMissingVariables: false,
    allowMissingProperties: false,
    lenient: false,
    fetchSchemas: false,
  });
});

test("set values pass through under their keys without the prefix", () => {
  const settings = serverSettings(
    config({
      serverPath: "/opt/pcl",
      schemaPath: ["/schemas", "./more"],
      skipResourceTypecheck: true,
      lenient: true,
      fetchSchemas: true,
    })
  );
  assert.deepEqual(settings.schemaPath, ["/schemas", "./more"]);
  assert.equal(settings.skipResourceTypecheck, true);
  assert.equal(settings.lenient, true);
  assert.equal(settings.fetchSchemas, true);
  assert.equal(settings.skipInvokeTypecheck, false);
  assert.equal("serverPath" in settings, false, "serverPath is the client's own");
});

test("values of the wrong type fall back to the default", () => {
  const settings = serverSettings(
    config({ schemaPath: "/one/dir", skipRangeTypecheck: "yes", allowMissingVariables: 1 })
  );
  assert.deepEqual(settings.schemaPath, []);
  assert.equal(settings.skipRangeTypecheck, false);
  assert.equal(settings.allowMissingVariables, false);
  assert.deepEqual(serverSettings(config({ schemaPath: ["/a", 3, null, "/b"] })).schemaPath, [
    "/a",
    "/b",
  ]);
});

test("package.json contributes exactly these settings, plus serverPath", () => {
  const properties = manifest.contributes.configuration.properties;
  const contributed = Object.keys(properties).sort();
  const expected = ["pcl.serverPath", ...Object.keys(SERVER_SETTINGS).map((k) => `pcl.${k}`)];
  assert.deepEqual(contributed, expected.sort());
  for (const [key, fallback] of Object.entries(SERVER_SETTINGS)) {
    const property = properties[`pcl.${key}`];
    assert.deepEqual(property.default, fallback, key);
    assert.equal(property.type, Array.isArray(fallback) ? "array" : typeof fallback, key);
    assert.ok((property.markdownDescription || property.description || "").length > 20, key);
  }
  assert.equal(properties["pcl.serverPath"].default, "pcl");
});

test("the descriptions name the Pulumi binder options they mirror", () => {
  const properties = manifest.contributes.configuration.properties;
  const mirrors = {
    skipResourceTypecheck: "SkipResourceTypechecking",
    skipInvokeTypecheck: "SkipInvokeTypechecking",
    skipRangeTypecheck: "SkipRangeTypechecking",
    allowMissingVariables: "AllowMissingVariables",
    allowMissingProperties: "AllowMissingProperties",
  };
  for (const [key, option] of Object.entries(mirrors)) {
    assert.match(properties[`pcl.${key}`].markdownDescription, new RegExp(option), key);
  }
  assert.match(properties["pcl.fetchSchemas"].markdownDescription, /pulumi package get-schema/);
});

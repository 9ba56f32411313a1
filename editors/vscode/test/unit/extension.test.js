"use strict";
// extension.js against a fake `vscode` API and a fake language client: what the client is
// given, what the middleware answers, the restart on `pcl.serverPath`, the language switch.

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const Module = require("node:module");

/** The fake world one test runs in. */
function makeWorld() {
  const world = {
    settings: { pcl: {}, files: {} },
    clients: [],
    languageChanges: [],
    errors: [],
    openListeners: [],
    configListeners: [],
    textDocuments: [],
    startFails: false,
  };

  class LanguageClient {
    constructor(id, name, serverOptions, clientOptions) {
      Object.assign(this, { id, name, serverOptions, clientOptions });
      this.state = "new";
      this.notifications = [];
      world.clients.push(this);
    }
    async start() {
      if (world.startFails) throw new Error("spawn pcl ENOENT");
      this.state = "running";
    }
    async stop() {
      this.state = "stopped";
    }
    async sendNotification(type, params) {
      this.notifications.push({ method: type.method, params });
    }
  }

  world.vscode = {
    Uri: { parse: (text) => ({ text }) },
    workspace: {
      getConfiguration: (section) => ({
        get: (key, fallback) => {
          const values = world.settings[section] || {};
          return key in values ? values[key] : fallback;
        },
      }),
      onDidOpenTextDocument: (listener) => {
        world.openListeners.push(listener);
        return { dispose() {} };
      },
      onDidChangeConfiguration: (listener) => {
        world.configListeners.push(listener);
        return { dispose() {} };
      },
      createFileSystemWatcher: (glob) => ({ glob, dispose() {} }),
      get textDocuments() {
        return world.textDocuments;
      },
    },
    window: {
      createOutputChannel: () => ({ appendLine() {}, dispose() {} }),
      showErrorMessage: (message) => world.errors.push(message),
    },
    languages: {
      getLanguages: async () => ["plaintext", "pcl", "puppet"],
      setTextDocumentLanguage: async (doc, language) => {
        world.languageChanges.push({ file: doc.fileName, language });
        return doc;
      },
    },
  };
  world.client = {
    LanguageClient,
    DidChangeConfigurationNotification: {
      type: { method: "workspace/didChangeConfiguration" },
    },
  };
  return world;
}

/** extension.js loaded afresh against `world`. */
function loadExtension(world) {
  const extensionPath = require.resolve("../../extension.js");
  const clientPath = require.resolve("vscode-languageclient/node");
  const originalResolve = Module._resolveFilename;
  const originalLoad = Module._load;
  Module._load = function (request, parent, isMain) {
    if (request === "vscode") return world.vscode;
    if (request === "vscode-languageclient/node") return world.client;
    return originalLoad.call(this, request, parent, isMain);
  };
  Module._resolveFilename = function (request, ...rest) {
    if (request === "vscode") return "vscode";
    return originalResolve.call(this, request, ...rest);
  };
  try {
    delete require.cache[extensionPath];
    delete require.cache[clientPath];
    return require(extensionPath);
  } finally {
    Module._load = originalLoad;
    Module._resolveFilename = originalResolve;
  }
}

async function activate(world) {
  const extension = loadExtension(world);
  const context = { subscriptions: [] };
  extension.activate(context);
  await new Promise((resolve) => setImmediate(resolve));
  return { extension, context };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

function doc(fileName, languageId, text) {
  return { uri: { scheme: "file" }, fileName, languageId, getText: () => text };
}

test("the client starts `pcl lsp --stdio` for PCL and Pulumi project and stack files", async () => {
  const world = makeWorld();
  world.settings.pcl = { serverPath: "/opt/bin/pcl", schemaPath: ["/schemas"], lenient: true };
  await activate(world);
  assert.equal(world.clients.length, 1);
  const [client] = world.clients;
  assert.equal(client.state, "running");
  assert.deepEqual(client.serverOptions, { command: "/opt/bin/pcl", args: ["lsp", "--stdio"] });
  const options = client.clientOptions;
  assert.deepEqual(options.documentSelector, [
    { scheme: "file", language: "pcl" },
    { scheme: "file", pattern: "**/Pulumi*.{yaml,yml,json}" },
  ]);
  assert.equal(options.synchronize.configurationSection, "pcl");
  assert.equal(options.synchronize.fileEvents.glob, "**/Pulumi*.{yaml,yml,json}");
  assert.deepEqual(options.initializationOptions, {
    schemaPath: ["/schemas"],
    skipResourceTypecheck: false,
    skipInvokeTypecheck: false,
    skipRangeTypecheck: false,
    allowMissingVariables: false,
    allowMissingProperties: false,
    lenient: true,
    fetchSchemas: false,
  });
});

test("the server's configuration request gets the settings without serverPath", async () => {
  const world = makeWorld();
  world.settings.pcl = { serverPath: "pcl", skipInvokeTypecheck: true };
  await activate(world);
  const { middleware } = world.clients[0].clientOptions;
  const next = async (params) => params.items.map((item) => ({ raw: item.section }));
  const answers = await middleware.workspace.configuration(
    { items: [{ section: "pcl" }, { section: "editor" }, { section: "pcl", scopeUri: "file:///w" }] },
    undefined,
    next
  );
  assert.equal(answers.length, 3);
  assert.equal(answers[0].skipInvokeTypecheck, true);
  assert.equal("serverPath" in answers[0], false);
  assert.deepEqual(answers[1], { raw: "editor" });
  assert.deepEqual(answers[2], answers[0]);
});

test("changed settings are sent as the `pcl` section", async () => {
  const world = makeWorld();
  await activate(world);
  const [client] = world.clients;
  world.settings.pcl = { allowMissingProperties: true, serverPath: "pcl" };
  await client.clientOptions.middleware.workspace.didChangeConfiguration(["pcl"], () => {
    throw new Error("the middleware sends the settings itself");
  });
  assert.equal(client.notifications.length, 1);
  const { method, params } = client.notifications[0];
  assert.equal(method, "workspace/didChangeConfiguration");
  assert.equal(params.settings.pcl.allowMissingProperties, true);
  assert.equal("serverPath" in params.settings.pcl, false);
});

test("changing pcl.serverPath restarts the server with the new binary", async () => {
  const world = makeWorld();
  await activate(world);
  const affects = (key) => ({ affectsConfiguration: (section) => section === key });
  for (const listener of world.configListeners) await listener(affects("pcl.lenient"));
  assert.equal(world.clients.length, 1, "other settings do not restart");

  world.settings.pcl = { serverPath: "/new/pcl" };
  for (const listener of world.configListeners) await listener(affects("pcl.serverPath"));
  assert.equal(world.clients.length, 2);
  assert.equal(world.clients[0].state, "stopped");
  assert.equal(world.clients[1].state, "running");
  assert.equal(world.clients[1].serverOptions.command, "/new/pcl");
});

test("deactivate stops the server", async () => {
  const world = makeWorld();
  const { extension } = await activate(world);
  await extension.deactivate();
  assert.equal(world.clients[0].state, "stopped");
});

test("a server that does not start is reported, not thrown", async () => {
  const world = makeWorld();
  world.startFails = true;
  world.settings.pcl = { serverPath: "missing-pcl" };
  await activate(world);
  assert.equal(world.errors.length, 1);
  assert.match(world.errors[0], /missing-pcl lsp/);
  assert.match(world.errors[0], /pcl\.serverPath/);
});

test("a .pp file opened as Puppet that is PCL switches to PCL, and back", async (t) => {
  const world = makeWorld();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pcl-ext-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const pclFile = path.join(dir, "main.pp");
  const puppetFile = path.join(dir, "site.pp");
  world.textDocuments = [doc(pclFile, "puppet", 'resource "r" "pkg:index:R" {\n}\n')];
  await activate(world);
  await settle();
  assert.deepEqual(world.languageChanges, [{ file: pclFile, language: "pcl" }]);

  const open = async (d) => {
    for (const listener of world.openListeners) listener(d);
    await settle();
    await settle();
  };
  world.languageChanges = [];
  await open(doc(puppetFile, "puppet", "class apache {\n}\n"));
  assert.deepEqual(world.languageChanges, [], "Puppet stays Puppet");

  await open(doc(puppetFile, "pcl", "class apache {\n}\n"));
  assert.deepEqual(world.languageChanges, [{ file: puppetFile, language: "puppet" }]);

  world.languageChanges = [];
  await open(doc(path.join(dir, "new.pp"), "pcl", "\n"));
  await open(doc(path.join(dir, "notes.txt"), "plaintext", "a = 1\n"));
  await open({ ...doc(path.join(dir, "x.pp"), "puppet", "a = 1\n"), uri: { scheme: "git" } });
  assert.deepEqual(world.languageChanges, [], "empty, other and non-file documents stay");
});

test("a Pulumi project above a .pp file makes it PCL", async (t) => {
  const world = makeWorld();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pcl-ext-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: p\nruntime: pcl\n");
  fs.mkdirSync(path.join(dir, "infra"));
  const file = path.join(dir, "infra", "odd.pp");
  world.textDocuments = [doc(file, "puppet", "# nothing but a comment yet\n")];
  await activate(world);
  await settle();
  assert.deepEqual(world.languageChanges, [{ file, language: "pcl" }]);
});

test("an explicit files.associations entry for *.pp is respected", async () => {
  for (const language of ["puppet", "pcl"]) {
    const world = makeWorld();
    world.settings.files = { associations: { "*.pp": language } };
    world.textDocuments = [
      doc("/srv/a.pp", "puppet", "a = 1\n"),
      doc("/srv/b.pp", "pcl", "class apache {\n}\n"),
    ];
    await activate(world);
    await settle();
    assert.deepEqual(world.languageChanges, [], language);
  }
});

// The VS Code client for `pcl lsp`: starts the server on stdio for PCL files and Pulumi
// project and stack files, passes the `pcl.*` settings (without the prefix) as
// initializationOptions and as the `pcl` configuration section, restarts the server when
// `pcl.serverPath` changes, and tells PCL from Puppet for `.pp` files.
"use strict";

const fs = require("fs");
const vscode = require("vscode");
const { LanguageClient, DidChangeConfigurationNotification } = require("vscode-languageclient/node");
const { firstSignificantLine, isPclFile } = require("./src/detect");
const { serverSettings } = require("./src/settings");

/** Pulumi project and stack files: the server checks stack config against the program. */
const PULUMI_FILES = "**/Pulumi*.{yaml,yml,json}";

let client;
let output;
let pulumiFilesWatcher;

function settingsFor(scopeUri) {
  const scope = scopeUri ? vscode.Uri.parse(scopeUri) : undefined;
  return serverSettings(vscode.workspace.getConfiguration("pcl", scope));
}

function createClient() {
  const command = vscode.workspace.getConfiguration("pcl").get("serverPath", "pcl") || "pcl";
  return new LanguageClient(
    "pcl",
    "PCL",
    { command, args: ["lsp", "--stdio"] },
    {
      documentSelector: [
        { scheme: "file", language: "pcl" },
        { scheme: "file", pattern: PULUMI_FILES },
      ],
      outputChannel: output,
      initializationOptions: settingsFor(undefined),
      synchronize: {
        configurationSection: "pcl",
        fileEvents: pulumiFilesWatcher,
      },
      middleware: {
        workspace: {
          // The `pcl` section holds the client's own `serverPath` too: answer with the
          // server's settings only.
          configuration: async (params, token, next) => {
            const answers = await next(params, token);
            if (!Array.isArray(answers)) return answers;
            return params.items.map((item, i) =>
              item.section === "pcl" ? settingsFor(item.scopeUri) : answers[i]
            );
          },
          didChangeConfiguration: (sections, next) => {
            if (!client) return next(sections);
            return client.sendNotification(DidChangeConfigurationNotification.type, {
              settings: { pcl: settingsFor(undefined) },
            });
          },
        },
      },
    }
  );
}

async function startClient() {
  client = createClient();
  try {
    await client.start();
  } catch (error) {
    const command = vscode.workspace.getConfiguration("pcl").get("serverPath", "pcl");
    vscode.window.showErrorMessage(
      `PCL: could not start the language server \`${command} lsp\` (${error.message || error}). ` +
        "Install the `pcl` binary or set `pcl.serverPath`."
    );
  }
}

async function stopClient() {
  const old = client;
  client = undefined;
  if (old) {
    try {
      await old.stop();
    } catch {
      // A server that never started cannot stop; nothing is left to clean up.
    }
  }
}

/** Whether the user's `files.associations` already say what `.pp` files are. */
function userChoseLanguage() {
  const associations = vscode.workspace.getConfiguration("files").get("associations", {});
  return Object.entries(associations || {}).some(
    ([glob, language]) => glob.endsWith(".pp") && (language === "pcl" || language === "puppet")
  );
}

/**
 * A `.pp` file opened as Puppet that is PCL becomes PCL; one opened as PCL that is not
 * becomes Puppet, where the Puppet extension is installed (an empty file says nothing
 * yet and stays as it is). An explicit `files.associations` entry for `*.pp` is left alone.
 */
async function reconsiderLanguage(doc) {
  if (doc.uri.scheme !== "file" || !doc.fileName.toLowerCase().endsWith(".pp")) return;
  if (doc.languageId !== "puppet" && doc.languageId !== "pcl") return;
  if (userChoseLanguage()) return;
  const text = doc.getText();
  const pcl = isPclFile(doc.fileName, fs, text);
  if (pcl && doc.languageId === "puppet") {
    await vscode.languages.setTextDocumentLanguage(doc, "pcl");
  } else if (!pcl && doc.languageId === "pcl" && firstSignificantLine(text) !== undefined) {
    const languages = await vscode.languages.getLanguages();
    if (languages.includes("puppet")) await vscode.languages.setTextDocumentLanguage(doc, "puppet");
  }
}

function reconsider(doc) {
  reconsiderLanguage(doc).catch((error) => output.appendLine(`language detection: ${error}`));
}

function activate(context) {
  output = vscode.window.createOutputChannel("PCL");
  pulumiFilesWatcher = vscode.workspace.createFileSystemWatcher(PULUMI_FILES);
  context.subscriptions.push(output, pulumiFilesWatcher);
  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument(reconsider),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("pcl.serverPath")) {
        await stopClient();
        await startClient();
      }
    }),
    { dispose: () => stopClient() }
  );
  for (const doc of vscode.workspace.textDocuments) reconsider(doc);
  startClient();
}

function deactivate() {
  return stopClient();
}

module.exports = { activate, deactivate };

// A minimal VS Code client for `pcl lsp`: starts the server on stdio for `.pp` files and
// passes the `pcl` settings as initializationOptions; the server also asks for the `pcl`
// section through workspace/configuration, so changed settings apply without a restart.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration("pcl");
  const command = settings.get("serverPath", "pcl");
  client = new LanguageClient(
    "pcl",
    "PCL",
    { command, args: ["lsp", "--stdio"] },
    {
      documentSelector: [{ scheme: "file", language: "pcl" }],
      initializationOptions: {
        schemaPath: settings.get("schemaPath", []),
        skipResourceTypecheck: settings.get("skipResourceTypecheck", false),
      },
      synchronize: { configurationSection: "pcl" },
    }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };

// Starts `tav lsp` (pip install 'tavernlang[lsp]') for .tav files. Highlighting works without it.
const vscode = require("vscode");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("tavernlang").get("server.command", ["tav", "lsp"]);
  if (!command || command.length === 0) return;
  let lc;
  try {
    lc = require("vscode-languageclient/node");
  } catch (e) {
    vscode.window.showWarningMessage("tavernlang: run `npm install` in the extension's folder for the language server; highlighting works without it.");
    return;
  }
  const server = { command: command[0], args: command.slice(1), transport: lc.TransportKind.stdio };
  client = new lc.LanguageClient("tavernlang", "tavernlang", server, {
    documentSelector: [{ scheme: "file", language: "tav" }, { scheme: "untitled", language: "tav" }],
  });
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };

// Loads editors/vscode/extension.js with stand-ins for the vscode API and vscode-languageclient,
// activates it and prints what it made (tests/test_lsp.py reads it).
const Module = require("module");
const path = require("path");
const made = [];
const fakes = {
  vscode: {
    workspace: { getConfiguration: () => ({ get: (k, d) => d }) },
    window: { showWarningMessage: (m) => made.push({ warning: m }) },
  },
  "vscode-languageclient/node": {
    TransportKind: { stdio: 0 },
    LanguageClient: class { constructor(id, name, server, opts) { made.push({ id, server, opts }); } start() { made.push("started"); } stop() {} },
  },
};
const orig = Module._load;
Module._load = function (req, parent, isMain) { return req in fakes ? fakes[req] : orig.apply(this, arguments); };
const ext = require(path.resolve(process.argv[2], "extension.js"));
const subs = [];
ext.activate({ subscriptions: subs });
console.log(JSON.stringify({ made, subs: subs.length }));

"use strict";
// vscode-tmgrammar-snap writes a missing .snap and passes: so a fixture without its
// committed snapshot would test nothing. This fails first when one is missing.
const fs = require("fs");
const path = require("path");

const dir = __dirname;
const fixtures = fs.readdirSync(dir).filter((name) => name.endsWith(".pp"));
const missing = fixtures.filter((name) => !fs.existsSync(path.join(dir, `${name}.snap`)));
if (fixtures.length === 0) {
  console.error(`no grammar fixtures (*.pp) in ${dir}`);
  process.exit(1);
}
if (missing.length > 0) {
  console.error(
    `grammar fixtures without a snapshot: ${missing.join(", ")}\n` +
      "write them with `npm run test:grammar:update`, check them, and commit them"
  );
  process.exit(1);
}
console.log(`${fixtures.length} grammar fixtures, each with its snapshot`);

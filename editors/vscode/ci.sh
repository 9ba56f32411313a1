#!/usr/bin/env bash
# CI for the VS Code extension: the unit tests (node's test runner), the grammar
# snapshots, and the .vsix package. Runs from any directory; needs Node.js >= 20.18.1 and
# npm (installed from Debian's packages when node is missing) and the npm registry.
# Exits non-zero on any failure; closes with the unit tests' summary (`# pass N`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

# @vscode/vsce 3.9 wants node >= 20; its undici and cheerio want 20.18.1.
MIN_NODE=20.18.1

echo "== node and npm"
if ! command -v node >/dev/null 2>&1; then
  echo "node is missing: installing Debian's nodejs and npm"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q nodejs npm
elif ! command -v npm >/dev/null 2>&1; then
  echo "npm is missing: installing Debian's npm"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q npm
fi
echo "node $(node --version) at $(command -v node); npm $(npm --version) at $(command -v npm)"
if ! node -e '
  const want = process.argv[1].split(".").map(Number);
  const have = process.versions.node.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (have[i] !== want[i]) process.exit(have[i] > want[i] ? 0 : 1);
' "$MIN_NODE"; then
  echo "error: node $(node --version) is too old: @vscode/vsce and its dependencies need >= $MIN_NODE" >&2
  exit 1
fi

echo "== npm ci"
npm ci --no-audit --no-fund

echo "== unit tests (npm run test:unit)"
unit_log="$(mktemp)"
trap 'rm -f "$unit_log"' EXIT
npm run --silent test:unit 2>&1 | tee "$unit_log"

echo "== grammar snapshots (npm run test:grammar)"
npm run --silent test:grammar

echo "== package (npx vsce package)"
version="$(node -p 'require("./package.json").version')"
vsix="pcl-$version.vsix"
rm -f "$vsix"
npx vsce package </dev/null
if [ ! -s "$vsix" ]; then
  echo "error: vsce did not write $vsix" >&2
  exit 1
fi
# The runtime dependencies and contributions must be inside.
node -e '
  const fs = require("fs");
  const zip = fs.readFileSync(process.argv[1]);
  // The names in the zip central directory, found through its end record.
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const names = new Set();
  let at = zip.readUInt32LE(end + 16);
  for (let n = zip.readUInt16LE(end + 10); n > 0; n--) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error("not a zip central directory entry");
    const nameLength = zip.readUInt16LE(at + 28);
    names.add(zip.toString("utf8", at + 46, at + 46 + nameLength));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  const needed = [
    "extension/package.json",
    "extension/extension.js",
    "extension/src/detect.js",
    "extension/src/settings.js",
    "extension/syntaxes/pcl.tmLanguage.json",
    "extension/language-configuration.json",
    "extension/LICENSE.txt",
    "extension/node_modules/vscode-languageclient/package.json",
    "extension/node_modules/vscode-languageserver-protocol/package.json",
    "extension/node_modules/vscode-jsonrpc/package.json",
  ];
  const missing = needed.filter((name) => !names.has(name));
  const stray = [...names].filter((name) => /^extension\/(test|node_modules\/(@vscode\/vsce|vscode-tmgrammar-test))\//.test(name));
  if (missing.length || stray.length) {
    console.error("error: " + process.argv[1] + " lacks " + JSON.stringify(missing) + ", holds " + JSON.stringify(stray.slice(0, 5)));
    process.exit(1);
  }
  console.log(process.argv[1] + ": " + names.size + " files, " + zip.length + " bytes, the runtime dependencies inside");
' "$vsix"

echo "== summary"
echo "grammar snapshots: $(ls test/grammar/*.pp | wc -l) fixtures match"
echo "unit tests (node --test):"
grep -E '^# (tests|pass|fail) [0-9]+$' "$unit_log"

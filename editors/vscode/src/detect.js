// Whether a `.pp` file is PCL or Puppet (which uses the same extension). Pure functions:
// the file system comes in as an argument, so tests pass a fake one.
"use strict";

const nodeFs = require("fs");
const nodePath = require("path");

/** The names of a Pulumi project file; one in a file's folder or above makes it PCL. */
const PROJECT_FILES = ["Pulumi.yaml", "Pulumi.yml", "Pulumi.json"];

const IDENT = String.raw`[\p{L}_][\p{L}\p{N}_-]*`;
const LABEL = String.raw`(?:"(?:[^"\\]|\\.)*"|${IDENT})`;
// A block PCL knows, as a whole word.
const PCL_BLOCK = /^(?:resource|config|output|component|pulumi|hook)(?![\p{L}\p{N}_-])/u;
// NAME = value, not Puppet's `==`, `=>` or `=~`.
const ATTRIBUTE = new RegExp(String.raw`^${IDENT}\s*=(?![=>~])`, "u");
// `package "aws" {` (PCL) and not `package {` (a Puppet resource).
const PACKAGE_BLOCK = new RegExp(String.raw`^package(?:\s+${LABEL})+\s*\{`, "u");

/**
 * The first line of `text` that holds something other than comments (`#`, `//`, `/* *\/`)
 * and blank space, from where that something starts; `undefined` when there is none.
 */
function firstSignificantLine(text) {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (i >= text.length) return undefined;
    if (text[i] === "#" || text.startsWith("//", i)) {
      const eol = text.indexOf("\n", i);
      if (eol < 0) return undefined;
      i = eol + 1;
    } else if (text.startsWith("/*", i)) {
      const close = text.indexOf("*/", i + 2);
      if (close < 0) return undefined;
      i = close + 2;
    } else {
      const eol = text.indexOf("\n", i);
      return text.slice(i, eol < 0 ? text.length : eol).replace(/\r$/, "");
    }
  }
}

/** Whether `text` reads as PCL: its first statement is a PCL block or `NAME = value`. */
function isPclText(text) {
  const line = firstSignificantLine(String(text));
  if (line === undefined) return false;
  return PCL_BLOCK.test(line) || ATTRIBUTE.test(line) || PACKAGE_BLOCK.test(line);
}

/**
 * The Pulumi project file in `dir` or the nearest folder above it, or `undefined`.
 * `fs` needs `existsSync`.
 */
function findProjectFile(dir, fs = nodeFs, path = nodePath) {
  let current = path.resolve(dir);
  for (;;) {
    for (const name of PROJECT_FILES) {
      const candidate = path.join(current, name);
      if (fs.existsSync(candidate)) return candidate;
    }
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/**
 * Whether the file at `file` is PCL: its text reads as PCL, or a Pulumi project file is in
 * its folder or a folder above. `fs` needs `readFileSync` and `existsSync`; `text`, when
 * given, stands for the file's contents (an editor's unsaved buffer).
 */
function isPclFile(file, fs = nodeFs, text = undefined) {
  if (text === undefined) {
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      text = "";
    }
  }
  return isPclText(text) || findProjectFile(nodePath.dirname(file), fs) !== undefined;
}

module.exports = { PROJECT_FILES, firstSignificantLine, isPclText, findProjectFile, isPclFile };

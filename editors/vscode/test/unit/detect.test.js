"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const {
  firstSignificantLine,
  isPclText,
  findProjectFile,
  isPclFile,
} = require("../../src/detect");

/** A file system of the given files (path -> text); folders exist implicitly. */
function fakeFs(files) {
  const all = new Map(Object.entries(files).map(([p, t]) => [path.resolve(p), t]));
  return {
    existsSync: (p) => all.has(path.resolve(p)),
    readFileSync: (p) => {
      const text = all.get(path.resolve(p));
      if (text === undefined) throw Object.assign(new Error(`ENOENT: ${p}`), { code: "ENOENT" });
      return text;
    },
  };
}

test("PCL blocks on the first line are PCL", () => {
  for (const text of [
    'resource "bucket" "aws:s3/bucket:Bucket" {\n}\n',
    'config "size" "int" {\n  default = 3\n}\n',
    'output "url" {\n  value = x\n}\n',
    'component "net" "./network" {\n}\n',
    "pulumi {\n  requiredVersionRange = \">=3\"\n}\n",
    'hook "resource" "log" {\n}\n',
    "resource a \"t\" {}",
  ]) {
    assert.equal(isPclText(text), true, text);
  }
});

test("a first attribute is PCL", () => {
  assert.equal(isPclText("a = 1\n"), true);
  assert.equal(isPclText("siteName=\"x\""), true);
  assert.equal(isPclText("foo-bar = _x\n"), true);
  assert.equal(isPclText("naïve = 1\n"), true);
});

test("package blocks: with a label PCL, without one Puppet", () => {
  assert.equal(isPclText('package "aws" {\n  baseProviderName = "aws"\n}\n'), true);
  assert.equal(isPclText("package aws {\n}\n"), true);
  assert.equal(isPclText("package {\n  baseProviderVersion = \"1.0.0\"\n}\n"), false);
  assert.equal(isPclText("package { 'nginx':\n  ensure => installed,\n}\n"), false);
  assert.equal(isPclText('package { "nginx": ensure => latest }\n'), false);
});

test("Puppet manifests are not PCL", () => {
  for (const text of [
    "class apache {\n  package { 'httpd': ensure => present }\n}\n",
    "node 'web01' {\n  include apache\n}\n",
    "$port = 8080\n",
    "include nginx\n",
    "define apache::vhost($port) {\n}\n",
    "file { '/etc/motd':\n  content => 'hi',\n}\n",
    "service { 'sshd': ensure => running }\n",
    "Package { ensure => installed }\n",
    "if $facts['os']['family'] == 'RedHat' {\n}\n",
    "a == b\n",
    "x =~ /y/\n",
    "resources { 'host': purge => true }\n",
  ]) {
    assert.equal(isPclText(text), false, text);
  }
});

test("comments and blank lines before the first statement are skipped", () => {
  const text = [
    "\ufeff",
    "# A program",
    "   // another comment",
    "",
    "/* a block",
    "   comment */",
    "",
    'resource "r" "pkg:index:R" {',
    "}",
  ].join("\n");
  assert.equal(firstSignificantLine(text), 'resource "r" "pkg:index:R" {');
  assert.equal(isPclText(text), true);
  assert.equal(isPclText("/* c */ output \"o\" {\n}\n"), true);
  assert.equal(isPclText("# only a comment\n/* and another */\n"), false);
  assert.equal(isPclText("/* never closed\nresource \"r\" \"t\" {\n"), false);
  assert.equal(isPclText("\r\n# windows\r\nconfig \"c\" \"int\" {\r\n}\r\n"), true);
  assert.equal(isPclText(""), false);
  assert.equal(isPclText("\n\n   \n"), false);
});

test("the first statement decides, not later ones", () => {
  assert.equal(isPclText("class foo {\n}\nresource \"r\" \"t\" {\n}\n"), false);
  assert.equal(isPclText("a = 1\nclass foo {\n}\n"), true);
});

test("words that only start like a PCL keyword are not keywords", () => {
  assert.equal(isPclText("resourceful { 'x': }\n"), false);
  assert.equal(isPclText("config-file { 'x': }\n"), false);
  assert.equal(isPclText("outputs\n"), false);
});

test("a Pulumi project file in the folder or above makes a file PCL", () => {
  const puppet = "class foo {\n}\n";
  for (const project of ["Pulumi.yaml", "Pulumi.yml", "Pulumi.json"]) {
    const fs = fakeFs({
      [`/work/app/${project}`]: "name: app\n",
      "/work/app/main.pp": puppet,
      "/work/app/sub/dir/other.pp": puppet,
    });
    assert.equal(isPclFile("/work/app/main.pp", fs), true, project);
    assert.equal(isPclFile("/work/app/sub/dir/other.pp", fs), true, project);
    assert.equal(findProjectFile("/work/app/sub/dir", fs), path.resolve(`/work/app/${project}`));
  }
});

test("stack files alone do not make a project", () => {
  const fs = fakeFs({
    "/work/app/Pulumi.dev.yaml": "config: {}\n",
    "/work/app/main.pp": "class foo {\n}\n",
  });
  assert.equal(isPclFile("/work/app/main.pp", fs), false);
  assert.equal(findProjectFile("/work/app", fs), undefined);
});

test("without a project file the text decides", () => {
  const fs = fakeFs({
    "/srv/manifests/site.pp": "node default {\n}\n",
    "/srv/pcl/main.pp": 'resource "r" "pkg:index:R" {\n}\n',
    "/srv/pcl/locals.pp": "# locals\nname = \"x\"\n",
  });
  assert.equal(isPclFile("/srv/manifests/site.pp", fs), false);
  assert.equal(isPclFile("/srv/pcl/main.pp", fs), true);
  assert.equal(isPclFile("/srv/pcl/locals.pp", fs), true);
});

test("a file that cannot be read is decided by its folders alone", () => {
  assert.equal(isPclFile("/nowhere/missing.pp", fakeFs({})), false);
  const fs = fakeFs({ "/proj/Pulumi.yaml": "name: p\n" });
  assert.equal(isPclFile("/proj/missing.pp", fs), true);
});

test("an editor's text stands for the file's contents", () => {
  const fs = fakeFs({ "/srv/main.pp": "class foo {\n}\n" });
  assert.equal(isPclFile("/srv/main.pp", fs, "a = 1\n"), true);
  assert.equal(isPclFile("/srv/main.pp", fs, "include foo\n"), false);
});

test("the real file system works too", (t) => {
  const fs = require("node:fs");
  const os = require("node:os");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pcl-detect-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, "sub", "main.pp");
  fs.mkdirSync(path.dirname(file));
  fs.writeFileSync(file, "class foo {\n}\n");
  const above = findProjectFile(os.tmpdir());
  assert.equal(isPclFile(file), above !== undefined);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: p\n");
  assert.equal(isPclFile(file), true);
  assert.equal(findProjectFile(path.dirname(file)), path.join(dir, "Pulumi.yaml"));
});

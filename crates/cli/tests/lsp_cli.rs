//! `pcl lsp` over stdio, driven as an editor would: the handshake, diagnostics after
//! opening and editing a file, hover, go to definition, document symbols, an unknown
//! method, a malformed request, shutdown and exit; formatting; configuration, workspace
//! folders and schema files changing on disk; edits and cancellations racing requests.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Client {
    fn start() -> Client {
        let schemas = pcl_test_utils::test_data_dir().join("programs/schemas");
        Client::start_with_schema_path(&schemas)
    }

    /// A server whose `PCL_SCHEMA_PATH` is `schemas` (empty: none).
    fn start_with_schema_path(schemas: &std::path::Path) -> Client {
        Client::start_with_env(&[("PCL_SCHEMA_PATH", schemas.as_os_str())])
    }

    /// A server with these environment variables set.
    fn start_with_env(env: &[(&str, &std::ffi::OsStr)]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pcl"))
            .args(["lsp", "--stdio"])
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("pcl lsp starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Client {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, message: &Value) {
        let text = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{text}", text.len())
            .expect("the server reads");
        self.stdin.flush().expect("flushed");
    }

    fn receive(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            self.stdout.read_line(&mut line).expect("a header line");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(value) = line.strip_prefix("Content-Length: ") {
                length = value.parse().expect("a length");
            }
        }
        let mut body = vec![0; length];
        self.stdout.read_exact(&mut body).expect("a body");
        serde_json::from_slice(&body).expect("JSON")
    }

    /// The next message that is a response to `id`, or a notification named `method`.
    fn wait_for(&mut self, id: Option<i64>, method: Option<&str>) -> Value {
        loop {
            let message = self.receive();
            if id.is_some() && message["id"].as_i64() == id {
                return message;
            }
            if method.is_some() && message["method"].as_str() == method {
                return message;
            }
        }
    }

    fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        self.wait_for(Some(id), None)
    }

    /// The handshake of a client that offers no capabilities.
    fn initialize(&mut self) {
        self.request(1, "initialize", json!({ "capabilities": {} }));
        self.send(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));
    }

    /// Open a document at version 1; the diagnostics then published.
    fn open(&mut self, uri: &str, text: &str) -> Value {
        self.send(
            &json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
                "textDocument": { "uri": uri, "languageId": "pcl", "version": 1, "text": text },
            }}),
        );
        self.wait_for(None, Some("textDocument/publishDiagnostics"))
    }
}

#[test]
fn an_editor_session() {
    let example = pcl_test_utils::project_root().join("tests/data/programs/example/main.pp");
    let uri = format!("file://{}", example.display());
    let text = std::fs::read_to_string(&example).expect("the example exists");
    let mut client = Client::start();
    let init = client.request(
        1,
        "initialize",
        json!({
            "capabilities": { "general": { "positionEncodings": ["utf-8", "utf-16"] } },
            "initializationOptions": { "skipResourceTypecheck": false },
        }),
    );
    assert_eq!(init["result"]["capabilities"]["positionEncoding"], "utf-8");
    assert_eq!(
        init["result"]["capabilities"]["completionProvider"]["triggerCharacters"],
        json!([".", "\""])
    );
    client.send(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": { "uri": uri, "languageId": "pcl", "version": 1, "text": text },
        }}),
    );
    let published = client.wait_for(None, Some("textDocument/publishDiagnostics"));
    assert_eq!(published["params"]["diagnostics"], json!([]), "{published}");
    assert_eq!(published["params"]["version"], 1);

    // Hover on `siteBucket` in `bucket      = siteBucket.name`.
    let (line, column) = position_of(&text, "siteBucket.name");
    let hover = client.request(
        2,
        "textDocument/hover",
        json!({
            "textDocument": { "uri": uri }, "position": { "line": line, "character": column + 2 },
        }),
    );
    let markdown = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(
        markdown.contains("resource siteBucket: object({\n  arn = output(string),"),
        "{hover}"
    );
    let definition = client.request(
        3,
        "textDocument/definition",
        json!({
            "textDocument": { "uri": uri }, "position": { "line": line, "character": column + 2 },
        }),
    );
    let (decl_line, _) = position_of(&text, "resource \"siteBucket\"");
    assert_eq!(
        definition["result"][0]["range"]["start"]["line"], decl_line,
        "{definition}"
    );
    let symbols = client.request(
        4,
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": uri } }),
    );
    let names: Vec<&str> = symbols["result"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "siteName",
            "pages",
            "siteBucket",
            "page",
            "region",
            "websiteUrl",
            "url",
            "pageKeys",
            "zones"
        ]
    );

    // An edit that breaks a reference: an error, at the new version.
    let (line, column) = position_of(&text, "siteBucket.name");
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": { "uri": uri, "version": 2 },
            "contentChanges": [{ "range": {
                "start": { "line": line, "character": column },
                "end": { "line": line, "character": column + 10 } }, "text": "siteBuckte" }],
        }}),
    );
    let published = client.wait_for(None, Some("textDocument/publishDiagnostics"));
    assert_eq!(published["params"]["version"], 2);
    assert_eq!(
        published["params"]["diagnostics"][0]["code"], "PCL4001",
        "{published}"
    );

    // Not JSON at all: a parse error, and the session goes on.
    let garbage = b"{ this is not json";
    write!(client.stdin, "Content-Length: {}\r\n\r\n", garbage.len()).expect("written");
    client.stdin.write_all(garbage).expect("written");
    client.stdin.flush().expect("flushed");
    let parse_error = client.receive();
    assert_eq!(parse_error["error"]["code"], -32700, "{parse_error}");
    // Inside `length(pages)`: its signature.
    let (line, column) = position_of(&text, "length(pages)");
    let help = client.request(
        9,
        "textDocument/signatureHelp",
        json!({
            "textDocument": { "uri": uri }, "position": { "line": line, "character": column + 8 },
        }),
    );
    assert_eq!(
        help["result"]["signatures"][0]["label"],
        "length(value: list | map | object | tuple | string) -> int",
        "{help}"
    );
    let unknown = client.request(5, "textDocument/noSuchThing", json!({}));
    assert_eq!(unknown["error"]["code"], -32601);
    let malformed = client.request(6, "textDocument/hover", json!({ "nonsense": true }));
    assert_eq!(malformed["error"]["code"], -32602);
    let outside = client.request(
        7,
        "textDocument/hover",
        json!({
            "textDocument": { "uri": uri }, "position": { "line": 9999, "character": 9999 },
        }),
    );
    assert!(outside.get("error").is_none(), "{outside}");

    let shutdown = client.request(8, "shutdown", Value::Null);
    assert!(shutdown.get("error").is_none());
    client.send(&json!({ "jsonrpc": "2.0", "method": "exit" }));
    let status = client.child.wait().expect("the server exits");
    assert!(status.success(), "{status:?}");
}

/// Line and UTF-8 column of the first occurrence of `needle`.
/// `textDocument/rename` (request `id`) of the name where `needle` starts in the
/// document (its URI and text), to `new_name`.
fn rename_at(
    client: &mut Client,
    id: i64,
    (uri, text): (&str, &str),
    needle: &str,
    new_name: &str,
) -> Value {
    let (line, column) = position_of(text, needle);
    client.request(
        id,
        "textDocument/rename",
        json!({
            "textDocument": { "uri": uri }, "position": { "line": line, "character": column },
            "newName": new_name,
        }),
    )
}

fn position_of(text: &str, needle: &str) -> (usize, usize) {
    let offset = text.find(needle).expect("the needle is in the text");
    let line = text[..offset].matches('\n').count();
    let column = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1);
    (line, column)
}

#[test]
fn references_rename_completion_and_quick_fixes() {
    let example = pcl_test_utils::project_root().join("tests/data/programs/mistakes/main.pp");
    let uri = format!("file://{}", example.display());
    let text = std::fs::read_to_string(&example).expect("the mistakes example exists");
    let mut client = Client::start();
    client.request(1, "initialize", json!({ "capabilities": {} }));
    client.send(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": { "uri": uri, "languageId": "pcl", "version": 1, "text": text },
        }}),
    );
    client.wait_for(None, Some("textDocument/publishDiagnostics"));
    // `pages` is declared once and read once.
    let (line, column) = position_of(&text, "pages[range.value]");
    let at = json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": column + 1 } });
    let mut with_context = at.clone();
    with_context["context"] = json!({ "includeDeclaration": true });
    let references = client.request(2, "textDocument/references", with_context);
    assert_eq!(
        references["result"].as_array().map(Vec::len),
        Some(2),
        "{references}"
    );
    let prepare = client.request(3, "textDocument/prepareRename", at.clone());
    assert_eq!(
        prepare["result"]["range"]["start"]["line"], line,
        "{prepare}"
    );
    assert_eq!(prepare["result"]["placeholder"], "pages", "{prepare}");
    let mut rename = at.clone();
    rename["newName"] = json!("pageNames");
    let edit = client.request(4, "textDocument/rename", rename);
    assert_eq!(
        edit["result"]["changes"][&uri].as_array().map(Vec::len),
        Some(2),
        "{edit}"
    );
    let mut bad = at.clone();
    bad["newName"] = json!("not a name");
    assert_eq!(
        client.request(5, "textDocument/rename", bad)["error"]["code"],
        -32602
    );
    // A literal value's name is refused: a reference would read the value.
    let mut literal = at.clone();
    literal["newName"] = json!("true");
    let refused = client.request(20, "textDocument/rename", literal);
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    // A name already taken is refused, naming the clash.
    let mut taken = at.clone();
    taken["newName"] = json!("siteName");
    let refused = client.request(17, "textDocument/rename", taken);
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("config `siteName`")),
        "{refused}"
    );
    // A typed `.` where no attributes follow opens nothing.
    let (line, column) = position_of(&text, "10\n}");
    let nothing = client.request(
        18,
        "textDocument/completion",
        json!({
            "textDocument": { "uri": uri }, "position": { "line": line, "character": column + 1 },
            "context": { "triggerKind": 2, "triggerCharacter": "." },
        }),
    );
    assert_eq!(nothing["result"], json!([]), "{nothing}");
    // Inside the bucket's body: its schema inputs are offered, the required one first in its detail.
    let (line, _) = position_of(&text, "  versioning = [true]");
    let completion = client.request(
        6,
        "textDocument/completion",
        json!({
            "textDocument": { "uri": uri }, "position": { "line": line, "character": 2 },
        }),
    );
    let labels: Vec<&str> = completion["result"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["label"].as_str())
        .collect();
    assert_eq!(
        labels,
        ["name", "storageClass", "tags", "versioning", "options"],
        "the inputs not yet set and the options block, nothing else"
    );
    // Inside `website = { .. }`: the website object's fields.
    let (line, column) = position_of(&text, "indexDocumnet");
    let fields = client.request(
        16,
        "textDocument/completion",
        json!({
            "textDocument": { "uri": uri }, "position": { "line": line, "character": column + 2 },
        }),
    );
    let labels: Vec<&str> = fields["result"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["label"].as_str())
        .collect();
    assert_eq!(labels, ["errorDocument", "indexDocument"], "{fields}");
    // In a resource's type label: the loaded schemas' resource types.
    let (line, column) = position_of(&text, "web:index:Page");
    let tokens = client.request(
        15,
        "textDocument/completion",
        json!({
            "textDocument": { "uri": uri }, "position": { "line": line, "character": column + 3 },
        }),
    );
    let labels: Vec<&str> = tokens["result"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["label"].as_str())
        .collect();
    assert_eq!(labels, ["web:index:Bucket", "web:index:Page"], "{tokens}");
    // Each replaces the whole token between the quotes: `:` ends a word in editors.
    let edit = &tokens["result"][1]["textEdit"];
    assert_eq!(edit["newText"], "web:index:Page", "{tokens}");
    assert_eq!(
        edit["range"]["start"]["character"], column as u64,
        "{tokens}"
    );
    assert_eq!(
        edit["range"]["end"]["character"],
        (column + "web:index:Page".len()) as u64,
        "{tokens}"
    );
    // Definition of the token: its entry in the schema file.
    let definition = client.request(
        19,
        "textDocument/definition",
        json!({
            "textDocument": { "uri": uri }, "position": { "line": line, "character": column + 3 },
        }),
    );
    let schema = pcl_test_utils::test_data_dir().join("programs/schemas/web-1.0.0.json");
    let schema_text = std::fs::read_to_string(&schema).expect("the web schema exists");
    let (schema_line, schema_column) = position_of(&schema_text, "\"web:index:Page\": {");
    assert_eq!(
        definition["result"][0]["uri"],
        format!("file://{}", schema.display()),
        "{definition}"
    );
    assert_eq!(
        definition["result"][0]["range"]["start"],
        json!({ "line": schema_line, "character": schema_column }),
        "{definition}"
    );
    // After `siteBucket.`: the bucket's outputs.
    let (line, column) = position_of(&text, "siteBucket.nmae");
    let members = client.request(13, "textDocument/completion", json!({
        "textDocument": { "uri": uri }, "position": { "line": line, "character": column + "siteBucket.".len() },
    }));
    let labels: Vec<&str> = members["result"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["label"].as_str())
        .collect();
    assert_eq!(
        labels,
        ["arn", "id", "name", "tags", "urn", "websiteEndpoint"],
        "{members}"
    );
    // The misspelt `sitename` has a quick fix.
    let (line, column) = position_of(&text, "sitename");
    let actions = client.request(7, "textDocument/codeAction", json!({
        "textDocument": { "uri": uri },
        "range": { "start": { "line": line, "character": column }, "end": { "line": line, "character": column } },
        "context": { "diagnostics": [] },
    }));
    assert_eq!(
        actions["result"][0]["title"], "replace with `siteName`",
        "{actions}"
    );
    let folding = client.request(
        8,
        "textDocument/foldingRange",
        json!({ "textDocument": { "uri": uri } }),
    );
    // One range per block or multi-line object, each once.
    let mut folds: Vec<(u64, u64)> = (folding["result"].as_array().into_iter().flatten())
        .filter_map(|r| Some((r["startLine"].as_u64()?, r["endLine"].as_u64()?)))
        .collect();
    assert_eq!(folds.len(), 7, "{folding}");
    folds.dedup();
    assert_eq!(folds.len(), 7, "{folding}");
    let symbols = client.request(10, "workspace/symbol", json!({ "query": "site" }));
    let names: Vec<&str> = symbols["result"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["name"].as_str())
        .collect();
    assert_eq!(names, ["siteName", "siteBucket"], "{symbols}");
    let hints = client.request(11, "textDocument/inlayHint", json!({
        "textDocument": { "uri": uri },
        "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 999, "character": 0 } },
    }));
    let labels: Vec<&str> = hints["result"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|h| h["label"].as_str())
        .collect();
    assert!(labels.contains(&" range.value: int"), "{hints}");
    let selection = client.request(12, "textDocument/selectionRange", json!({
        "textDocument": { "uri": uri }, "positions": [{ "line": line, "character": column + 2 }],
    }));
    assert!(
        selection["result"][0]["parent"]["parent"].is_object(),
        "{selection}"
    );
    let tokens = client.request(
        14,
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": uri } }),
    );
    let data = tokens["result"]["data"].as_array().map_or(0, Vec::len);
    assert!(data > 50 && data.is_multiple_of(5), "{tokens}");
    client.request(9, "shutdown", Value::Null);
    client.send(&json!({ "jsonrpc": "2.0", "method": "exit" }));
    assert!(client.child.wait().expect("the server exits").success());
}

/// `text` with LSP edits applied (positions in UTF-16 code units, as negotiated by a
/// client that offers no encoding).
fn apply_lsp_edits(text: &str, edits: &Value) -> String {
    let offset = |position: &Value| {
        let line = position["line"].as_u64().unwrap_or(0) as usize;
        let character = position["character"].as_u64().unwrap_or(0) as usize;
        let line_start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        let mut units = 0;
        let line_text = &text[line_start..];
        let within = line_text
            .char_indices()
            .find(|&(_, ch)| {
                let reached = units >= character;
                units += ch.len_utf16();
                reached
            })
            .map_or(line_text.len(), |(idx, _)| idx);
        line_start + within
    };
    let mut ranges: Vec<(usize, usize, String)> = edits
        .as_array()
        .into_iter()
        .flatten()
        .map(|edit| {
            let start = offset(&edit["range"]["start"]);
            let end = offset(&edit["range"]["end"]);
            (
                start,
                end,
                edit["newText"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    ranges.sort();
    let mut res = text.to_owned();
    for (start, end, new_text) in ranges.into_iter().rev() {
        res.replace_range(start..end, &new_text);
    }
    res
}

#[test]
fn formatting_and_range_formatting() {
    let dir = scratch_dir("fmt");
    let uri = format!("file://{}/main.pp", dir.display());
    let text = "tags = {\n  \"héllo\"= \"wörld\"\n   b   = 2\n}\nx=1\n";
    let mut client = Client::start();
    client.request(1, "initialize", json!({ "capabilities": {} }));
    client.send(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": { "uri": uri, "languageId": "pcl", "version": 1, "text": text },
        }}),
    );
    let options = json!({ "tabSize": 2, "insertSpaces": true });
    let whole = client.request(
        2,
        "textDocument/formatting",
        json!({ "textDocument": { "uri": uri }, "options": options }),
    );
    assert_eq!(
        apply_lsp_edits(text, &whole["result"]),
        "tags = {\n  \"héllo\" = \"wörld\"\n  b       = 2\n}\nx = 1\n",
        "{whole}"
    );
    let last_line = client.request(
        3,
        "textDocument/rangeFormatting",
        json!({
            "textDocument": { "uri": uri }, "options": options,
            "range": { "start": { "line": 4, "character": 0 }, "end": { "line": 4, "character": 3 } },
        }),
    );
    assert_eq!(
        apply_lsp_edits(text, &last_line["result"]),
        "tags = {\n  \"héllo\"= \"wörld\"\n   b   = 2\n}\nx = 1\n",
        "{last_line}"
    );
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": { "uri": uri, "version": 2 },
            "contentChanges": [{ "text": "broken = {\n" }],
        }}),
    );
    let refused = client.request(
        4,
        "textDocument/formatting",
        json!({ "textDocument": { "uri": uri }, "options": options }),
    );
    assert!(refused["result"].is_null(), "{refused}");
    client.request(5, "shutdown", Value::Null);
    client.send(&json!({ "jsonrpc": "2.0", "method": "exit" }));
    assert!(client.child.wait().expect("the server exits").success());
}

/// The messages of a publishDiagnostics notification for `uri`, waiting for the next one.
fn next_diagnostics(client: &mut Client, uri: &str) -> Vec<String> {
    loop {
        let message = client.wait_for(None, Some("textDocument/publishDiagnostics"));
        if message["params"]["uri"] == uri {
            return (message["params"]["diagnostics"]
                .as_array()
                .into_iter()
                .flatten())
            .filter_map(|d| d["message"].as_str().map(str::to_owned))
            .collect();
        }
    }
}

/// The next request the server sends to the client.
fn next_server_request(client: &mut Client) -> Value {
    loop {
        let message = client.receive();
        if message["method"].is_string() && !message["id"].is_null() {
            return message;
        }
    }
}

fn shut_down(mut client: Client) {
    client.request(999, "shutdown", Value::Null);
    client.send(&json!({ "jsonrpc": "2.0", "method": "exit" }));
    assert!(client.child.wait().expect("the server exits").success());
}

/// A fresh directory for one test, removed when dropped.
fn scratch_dir(name: &str) -> pcl_test_utils::ScratchDir {
    pcl_test_utils::ScratchDir::new(&format!("lsp-{name}"))
}

const USES_WEB: &str = "resource \"site\" \"web:index:Bucket\" {\n  name = \"site\"\n}\n";

#[test]
fn configuration_watchers_and_workspace_folders() {
    let dir = scratch_dir("configuration");
    std::fs::create_dir_all(dir.join("app")).expect("mkdir");
    std::fs::create_dir_all(dir.join("other")).expect("mkdir");
    std::fs::write(dir.join("app/main.pp"), USES_WEB).expect("write");
    std::fs::write(dir.join("other/other.pp"), "unopenedLocal = 1\n").expect("write");
    let uri = format!("file://{}/app/main.pp", dir.display());
    let mut client = Client::start_with_schema_path(std::path::Path::new(""));
    client.request(
        1,
        "initialize",
        json!({
            "capabilities": { "workspace": {
                "configuration": true,
                "didChangeWatchedFiles": { "dynamicRegistration": true },
                "workspaceFolders": true,
            }},
            "workspaceFolders": [{ "uri": format!("file://{}", dir.display()), "name": "w" }],
        }),
    );
    client.send(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));
    let register = next_server_request(&mut client);
    assert_eq!(
        register["method"], "client/registerCapability",
        "{register}"
    );
    let globs = &register["params"]["registrations"][0]["registerOptions"]["watchers"];
    assert_eq!(globs[1]["globPattern"], "**/*.json", "{register}");
    client.send(&json!({ "jsonrpc": "2.0", "id": register["id"], "result": null }));
    let configuration = next_server_request(&mut client);
    assert_eq!(configuration["method"], "workspace/configuration");
    assert_eq!(configuration["params"]["items"][0]["section"], "pcl");
    // Before the answer, no schema folder is known: the package is missing.
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": { "uri": uri, "languageId": "pcl", "version": 1, "text": USES_WEB },
        }}),
    );
    let before = next_diagnostics(&mut client, &uri);
    assert!(
        before
            .iter()
            .any(|m| m.contains("no schema found for package 'web'")),
        "{before:?}"
    );
    // The advice names the editor's setting, not the command line's flag.
    assert!(
        before.iter().any(|m| m.contains("`schemaPath` setting")),
        "{before:?}"
    );
    assert!(
        !before
            .iter()
            .any(|m| m.contains("--schema-dir") || m.contains("run again with")),
        "{before:?}"
    );
    let schemas = pcl_test_utils::test_data_dir().join("programs/schemas");
    client.send(
        &json!({ "jsonrpc": "2.0", "id": configuration["id"], "result": [
            { "schemaPath": [schemas], "skipResourceTypecheck": false },
        ]}),
    );
    let after = next_diagnostics(&mut client, &uri);
    assert!(after.is_empty(), "{after:?}");
    // Settings pushed with the notification apply directly.
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "workspace/didChangeConfiguration",
        "params": { "settings": { "pcl": { "schemaPath": [], "skipResourceTypecheck": true } } } }),
    );
    // The schema's directory is no longer searched: the package is missing again, as
    // `pcl check --skip-resource-typecheck` says it (a warning).
    let relaxed = published_until_answered(&mut client, 3);
    assert_eq!(
        relaxed,
        [(
            "main.pp".to_owned(),
            vec!["no schema found for package 'web'".to_owned()]
        )],
    );
    // The program in the other folder was loaded from the workspace folder.
    let symbols = client.request(2, "workspace/symbol", json!({ "query": "unopened" }));
    assert_eq!(symbols["result"][0]["name"], "unopenedLocal", "{symbols}");
    shut_down(client);
}

#[test]
fn schema_files_changing_on_disk() {
    let dir = scratch_dir("schemas");
    let schemas = dir.join("schemas");
    std::fs::create_dir_all(&schemas).expect("mkdir");
    let schema_path = schemas.join("web-1.0.0.json");
    let original = std::fs::read_to_string(
        pcl_test_utils::test_data_dir().join("programs/schemas/web-1.0.0.json"),
    )
    .expect("the web schema exists");
    std::fs::write(&schema_path, &original).expect("write");
    std::fs::write(dir.join("main.pp"), USES_WEB).expect("write");
    let uri = format!("file://{}/main.pp", dir.display());
    let mut client = Client::start_with_schema_path(&schemas);
    client.request(1, "initialize", json!({ "capabilities": {} }));
    client.send(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": { "uri": uri, "languageId": "pcl", "version": 1, "text": USES_WEB },
        }}),
    );
    assert!(next_diagnostics(&mut client, &uri).is_empty());
    let changed = json!({ "jsonrpc": "2.0", "method": "workspace/didChangeWatchedFiles",
        "params": { "changes": [{ "uri": format!("file://{}", schema_path.display()), "type": 2 }] } });
    // The resource is renamed in the schema: the program's token is unknown now.
    std::fs::write(
        &schema_path,
        original.replace("web:index:Bucket", "web:index:Bucket2"),
    )
    .expect("write");
    client.send(&changed);
    let renamed = next_diagnostics(&mut client, &uri);
    assert!(
        renamed.iter().any(|m| m.contains("web:index:Bucket")),
        "{renamed:?}"
    );
    // A broken schema is reported where the package is used; the server keeps serving.
    std::fs::write(&schema_path, "{ not json").expect("write");
    client.send(&changed);
    let broken = next_diagnostics(&mut client, &uri);
    assert!(!broken.is_empty(), "{broken:?}");
    let hover = client.request(
        2,
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 0, "character": 11 } }),
    );
    assert!(hover.get("error").is_none(), "{hover}");
    // Restored: clean again.
    std::fs::write(&schema_path, &original).expect("write");
    client.send(&changed);
    let restored = next_diagnostics(&mut client, &uri);
    assert!(restored.is_empty(), "{restored:?}");
    shut_down(client);
}

/// A client that does not watch files for the server: opening a file reads its program
/// from disk again, which is how changes made there to files not open are seen.
#[test]
fn without_file_watching_an_open_reads_the_program_again() {
    let dir = scratch_dir("open-without-watching");
    std::fs::write(dir.join("a.pp"), "w = y\n").expect("a program file");
    std::fs::write(dir.join("b.pp"), "y = 1\n").expect("a program file");
    std::fs::write(dir.join("c.pp"), "z = 2\n").expect("a program file");
    let uri = |name: &str| format!("file://{}/{name}", dir.display());
    let mut client = client_with_open_document(&uri("a.pp"), "w = y\n");
    std::fs::write(dir.join("b.pp"), "x = 1\n").expect("b changes on disk");
    client.send(&json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": { "uri": uri("c.pp"), "languageId": "pcl", "version": 1, "text": "z = 2\n" },
    }}));
    let published = published_until_answered(&mut client, 2);
    let undefined_y = vec!["undefined name `y`".to_owned()];
    assert_eq!(
        published,
        [
            ("a.pp".to_owned(), undefined_y),
            ("c.pp".to_owned(), vec![])
        ]
    );
    shut_down(client);
}

/// A client that does not watch files for the server: after an edit, the pass that
/// publishes the files no editor shows reads the program again when its files on disk
/// changed (one removed here), and when its component's did.
#[test]
fn without_file_watching_an_edit_finds_files_changed_on_disk() {
    let dir = scratch_dir("edit-without-watching");
    std::fs::create_dir_all(dir.join("net")).expect("mkdir");
    let main = "w = y\n\ncomponent net \"./net\" {\n  size = 1\n}\n";
    std::fs::write(dir.join("a.pp"), main).expect("a program file");
    std::fs::write(dir.join("b.pp"), "y = 1\n").expect("a program file");
    std::fs::write(dir.join("net/net.pp"), "config size \"int\" {}\n").expect("a component");
    let uri = |name: &str| format!("file://{}/{name}", dir.display());
    let mut client = client_with_open_document(&uri("a.pp"), main);
    std::fs::remove_file(dir.join("b.pp")).expect("b removed on disk");
    std::fs::write(dir.join("net/net.pp"), "config width \"int\" {}\n").expect("changed");
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": { "uri": uri("a.pp"), "version": 2 },
        "contentChanges": [{ "text": format!("{main}\n") }] }}),
    );
    // At once, as the program was read; then, the delay past, as the disk has it.
    assert_eq!(
        next_diagnostics(&mut client, &uri("a.pp")),
        Vec::<String>::new()
    );
    std::thread::sleep(std::time::Duration::from_secs(1));
    let published = published_until_answered(&mut client, 2);
    let [(file, messages)] = published.as_slice() else {
        panic!("one publication expected: {published:?}");
    };
    assert_eq!(file, "a.pp");
    assert!(
        messages[0].starts_with("undefined name `y`"),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("has no input 'size'")),
        "{messages:?}"
    );
    shut_down(client);
}

/// The references to a name read 20,000 times, its highlights and a rename each indexed
/// the file's lines once per reference (a minute for a 3 MB file): now once per request.
#[test]
fn references_highlights_and_renames_of_a_name_read_20000_times() {
    let dir = scratch_dir("many-references");
    let uri = format!("file://{}/main.pp", dir.display());
    let n = 20_000;
    let mut text = String::from("env = \"dev\"\n");
    for i in 0..n {
        text.push_str(&format!("x{i} = \"${{env}}-{i}\"\n"));
    }
    let mut client = client_with_open_document(&uri, &text);
    let at = json!({ "textDocument": { "uri": uri }, "position": { "line": 0, "character": 1 } });
    let mut with_context = at.clone();
    with_context["context"] = json!({ "includeDeclaration": true });
    let references = client.request(2, "textDocument/references", with_context);
    let found = references["result"].as_array().expect("references");
    assert_eq!(found.len(), n + 1);
    let last = &found[n]["range"];
    assert_eq!(
        last["start"],
        json!({ "line": n, "character": 12 }),
        "{last}"
    );
    let highlights = client.request(3, "textDocument/documentHighlight", at.clone());
    assert_eq!(highlights["result"].as_array().map(Vec::len), Some(n + 1));
    let mut rename = at;
    rename["newName"] = json!("stage");
    let edit = client.request(4, "textDocument/rename", rename);
    let edits = edit["result"]["changes"][&uri].as_array().expect("edits");
    assert_eq!(edits.len(), n + 1);
    assert!(edits.iter().all(|e| e["newText"] == "stage"), "{edit}");
    let ranges: Vec<&Value> = edits.iter().map(|e| &e["range"]).collect();
    assert!(ranges.contains(&last), "{last}");
    shut_down(client);
}

/// The diagnostics published before the answer to a request sent now: those the
/// notifications already sent caused (the server applies them in order), by file name
/// (sorted), each by the first line of its message.
fn published_until_answered(client: &mut Client, id: i64) -> Vec<(String, Vec<String>)> {
    client.send(
        &json!({ "jsonrpc": "2.0", "id": id, "method": "workspace/symbol",
        "params": { "query": "" } }),
    );
    let mut published = Vec::new();
    loop {
        let message = client.receive();
        if message["id"].as_i64() == Some(id) {
            published.sort();
            return published;
        }
        if message["method"] == "client/registerCapability" {
            client.send(&json!({ "jsonrpc": "2.0", "id": message["id"], "result": null }));
        }
        published.extend(published_entry(&message));
    }
}

/// Opening the files of a program one by one, as they are on disk, publishes the new
/// document's diagnostics alone, and closing one as it is on disk publishes nothing new
/// (each once re-read the program and published every open document's: 100 files opened
/// one by one took 7 s, and closing them 2 s). A document opened or closed with other
/// text than the disk's still re-checks the program; of the open documents, those whose
/// diagnostics changed are published. While a file of the program is open, its other
/// files' diagnostics follow when the client pauses, as they are on disk, and are taken
/// back when the last is closed. (For a client that watches files for the server; for
/// one that does not, see the next test.)
#[test]
fn opening_and_closing_files_as_they_are_on_disk() {
    let dir = scratch_dir("open-as-on-disk");
    let texts = [
        ("a.pp", "x = 1\nw = y\n"),
        ("b.pp", "y = x + missing\n"),
        ("c.pp", "z = y\n"),
    ];
    for (name, text) in texts {
        std::fs::write(dir.join(name), text).expect("a program file");
    }
    let uri = |name: &str| format!("file://{}/{name}", dir.display());
    let open = |client: &mut Client, name: &str, text: &str| {
        client.send(
            &json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
                "textDocument": { "uri": uri(name), "languageId": "pcl", "version": 1, "text": text },
            }}),
        );
    };
    let close = |client: &mut Client, name: &str| {
        client.send(
            &json!({ "jsonrpc": "2.0", "method": "textDocument/didClose",
            "params": { "textDocument": { "uri": uri(name) } } }),
        );
    };
    let mut client = Client::start();
    let watching =
        json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } });
    client.request(1, "initialize", json!({ "capabilities": watching }));
    client.send(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));
    // Each step's publications in all, at once and after the pause (`published_next`).
    open(&mut client, "a.pp", texts[0].1);
    let undefined = vec!["undefined name `missing`".to_owned()];
    assert_eq!(
        published_next(&mut client, 2),
        [
            ("a.pp".to_owned(), vec![]),
            ("b.pp".to_owned(), undefined.clone())
        ]
    );
    open(&mut client, "b.pp", texts[1].1);
    assert_eq!(
        published_next(&mut client, 1),
        [("b.pp".to_owned(), undefined.clone())]
    );
    open(&mut client, "c.pp", texts[2].1);
    assert_eq!(
        published_next(&mut client, 1),
        [("c.pp".to_owned(), vec![])]
    );
    // Closed as on disk with its program open: what it shows stays.
    close(&mut client, "c.pp");
    assert_eq!(published_until_answered(&mut client, 2), []);
    // Opened with an edit not saved (`y` removed): the program is checked again, and the
    // files whose diagnostics changed are published.
    close(&mut client, "b.pp");
    open(&mut client, "b.pp", "missing = 2\n");
    let undefined_y = vec!["undefined name `y`".to_owned()];
    assert_eq!(
        published_next(&mut client, 3),
        [
            ("a.pp".to_owned(), undefined_y.clone()),
            ("b.pp".to_owned(), vec![]),
            ("c.pp".to_owned(), undefined_y),
        ]
    );
    // Closed with that edit: the program is read from disk again, where `y` is (and
    // `missing` is not).
    close(&mut client, "b.pp");
    assert_eq!(
        published_next(&mut client, 3),
        [
            ("a.pp".to_owned(), vec![]),
            ("b.pp".to_owned(), undefined.clone()),
            ("c.pp".to_owned(), vec![]),
        ]
    );
    // The last closed: every file's diagnostics are taken back.
    close(&mut client, "a.pp");
    assert_eq!(
        published_next(&mut client, 2),
        [("a.pp".to_owned(), vec![]), ("b.pp".to_owned(), vec![])]
    );
    shut_down(client);
}

/// The next `count` diagnostics published, as [`published_until_answered`] gives them:
/// those of a step at once and those that follow when the client pauses, however the
/// machine's timing splits them.
fn published_next(client: &mut Client, count: usize) -> Vec<(String, Vec<String>)> {
    let mut published = Vec::new();
    while published.len() < count {
        let message = client.receive();
        if message["method"] == "client/registerCapability" {
            client.send(&json!({ "jsonrpc": "2.0", "id": message["id"], "result": null }));
        }
        published.extend(published_entry(&message));
    }
    published.sort();
    published
}

/// A publishDiagnostics notification's file name and the first line of each message.
fn published_entry(message: &Value) -> Option<(String, Vec<String>)> {
    if message["method"] != "textDocument/publishDiagnostics" {
        return None;
    }
    let uri = message["params"]["uri"].as_str().unwrap_or_default();
    let name = uri.rsplit('/').next().unwrap_or_default().to_owned();
    let messages = (message["params"]["diagnostics"]
        .as_array()
        .into_iter()
        .flatten())
    .filter_map(|d| d["message"].as_str()?.lines().next().map(str::to_owned))
    .collect();
    Some((name, messages))
}

/// An edit that breaks a file no editor shows: the open document's diagnostics come at
/// once, the other file's when the typing pauses (`UNOPENED_DELAY`), as `pcl check` would
/// report them; the fix takes them back the same way.
#[test]
fn an_edit_that_breaks_a_file_no_editor_shows() {
    let dir = scratch_dir("unopened");
    let (base, main) = ("region = \"north\"\n", "zone = \"${region}-a\"\n");
    std::fs::write(dir.join("base.pp"), base).expect("a program file");
    std::fs::write(dir.join("main.pp"), main).expect("a program file");
    let uri = |name: &str| format!("file://{}/{name}", dir.display());
    let mut client = Client::start();
    client.initialize();
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": { "uri": uri("base.pp"), "languageId": "pcl", "version": 1, "text": base },
        }}),
    );
    assert!(next_diagnostics(&mut client, &uri("base.pp")).is_empty());
    // `region` renamed where it is declared: `main.pp` reads it.
    let rename = |client: &mut Client, version: i32, name: &str| {
        client.send(
            &json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": { "uri": uri("base.pp"), "version": version },
                "contentChanges": [{ "text": format!("{name} = \"north\"\n") }],
            }}),
        );
    };
    rename(&mut client, 2, "regoin");
    let published = next_published(&mut client);
    assert_eq!(published["params"]["uri"], uri("base.pp"), "{published}");
    assert_eq!(published["params"]["version"], 2, "{published}");
    let published = next_published(&mut client);
    assert_eq!(published["params"]["uri"], uri("main.pp"), "{published}");
    assert!(published["params"]["version"].is_null(), "{published}");
    let message = published["params"]["diagnostics"][0]["message"].as_str();
    assert!(
        message.is_some_and(|m| m.starts_with("undefined name `region`")),
        "{published}"
    );
    rename(&mut client, 3, "region");
    assert_eq!(next_published(&mut client)["params"]["uri"], uri("base.pp"));
    let published = next_published(&mut client);
    assert_eq!(published["params"]["uri"], uri("main.pp"), "{published}");
    assert_eq!(published["params"]["diagnostics"], json!([]), "{published}");
    shut_down(client);
}

/// A component's files are shown with the program that uses it, as `pcl check` of that
/// program reports them, and taken back when its last file closes.
#[test]
fn a_components_files_are_shown_with_its_user() {
    let dir = scratch_dir("component-shown");
    std::fs::create_dir_all(dir.join("net")).expect("mkdir");
    let main = "component net \"./net\" {}\n";
    std::fs::write(dir.join("main.pp"), main).expect("a program file");
    std::fs::write(dir.join("net/net.pp"), "x = missing\n").expect("a component");
    let uri = format!("file://{}/main.pp", dir.display());
    let mut client = Client::start();
    client.initialize();
    let published = client.open(&uri, main);
    assert_eq!(published["params"]["diagnostics"], json!([]), "{published}");
    let undefined = vec!["undefined name `missing`".to_owned()];
    assert_eq!(
        published_next(&mut client, 1),
        [("net.pp".to_owned(), undefined)]
    );
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didClose",
        "params": { "textDocument": { "uri": uri } } }),
    );
    assert_eq!(
        published_next(&mut client, 2),
        [
            ("main.pp".to_owned(), vec![]),
            ("net.pp".to_owned(), vec![])
        ]
    );
    shut_down(client);
}

/// A file of the program on disk that is not UTF-8 shows the error `pcl check` reports
/// (`PCL1016`) while another file of it is open; opened, the editor's text is UTF-8 and
/// the error goes.
#[test]
fn a_file_on_disk_that_is_not_utf8_says_so() {
    let dir = scratch_dir("latin-1");
    let main = "output greeting {\n  value = word\n}\n";
    std::fs::write(dir.join("main.pp"), main).expect("a program file");
    std::fs::write(dir.join("word.pp"), b"word = \"caf\xe9\"\n").expect("a Latin-1 file");
    let uri = |name: &str| format!("file://{}/{name}", dir.display());
    let mut client = Client::start();
    client.initialize();
    let published = client.open(&uri("main.pp"), main);
    assert_eq!(published["params"]["diagnostics"], json!([]), "{published}");
    let published = next_published(&mut client);
    assert_eq!(published["params"]["uri"], uri("word.pp"), "{published}");
    let found = &published["params"]["diagnostics"];
    assert_eq!(found.as_array().map(Vec::len), Some(1), "{published}");
    assert_eq!(found[0]["code"], "PCL1016");
    assert_eq!(
        found[0]["range"],
        json!({ "start": { "line": 0, "character": 11 }, "end": { "line": 0, "character": 12 } })
    );
    // Opened as the editor decoded it (as Latin-1 here): UTF-8 now, no error.
    assert_eq!(
        client.open(&uri("word.pp"), "word = \"café\"\n")["params"]["diagnostics"],
        json!([])
    );
    shut_down(client);
}

/// The next publishDiagnostics notification.
fn next_published(client: &mut Client) -> Value {
    client.wait_for(None, Some("textDocument/publishDiagnostics"))
}

/// A program big enough that semantic tokens for it take far longer than the server takes
/// to read the next message, so the edit or cancellation sent right after the request
/// always arrives while the request runs.
fn big_program() -> String {
    let program = pcl_test_utils::checked::checked_program(4_000, 1, 7);
    program.files.into_iter().map(|(_, text)| text).collect()
}

/// A server with one document open, after its first diagnostics.
fn client_with_open_document(uri: &str, text: &str) -> Client {
    let mut client = Client::start();
    client.request(1, "initialize", json!({ "capabilities": {} }));
    client.send(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": { "uri": uri, "languageId": "pcl", "version": 1, "text": text },
        }}),
    );
    next_diagnostics(&mut client, uri);
    client
}

/// A client with the big program open and checked, and a slow request (id 2) just sent.
fn client_with_a_slow_request(name: &str) -> (Client, String, String) {
    let dir = scratch_dir(name);
    let text = big_program();
    let uri = format!("file://{}/main.pp", dir.display());
    let mut client = client_with_open_document(&uri, &text);
    client.send(
        &json!({ "jsonrpc": "2.0", "id": 2, "method": "textDocument/semanticTokens/full",
        "params": { "textDocument": { "uri": uri } } }),
    );
    (client, uri, text)
}

#[test]
fn an_edit_while_a_request_runs_gives_content_modified() {
    let (mut client, uri, text) = client_with_a_slow_request("race-edit");
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": { "uri": uri, "version": 2 },
            "contentChanges": [{ "text": format!("{text}\nextra = 1\n") }],
        }}),
    );
    let answer = client.wait_for(Some(2), None);
    assert_eq!(answer["error"]["code"], -32801, "{answer}");
    shut_down(client);
}

#[test]
fn a_cancelled_request_gets_request_cancelled() {
    let (mut client, uri, _) = client_with_a_slow_request("race-cancel");
    client.send(&json!({ "jsonrpc": "2.0", "method": "$/cancelRequest", "params": { "id": 2 } }));
    let answer = client.wait_for(Some(2), None);
    assert_eq!(answer["error"]["code"], -32800, "{answer}");
    // The server goes on serving.
    let symbols = client.request(
        3,
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": uri } }),
    );
    assert!(
        symbols["result"].as_array().is_some_and(|s| !s.is_empty()),
        "{symbols}"
    );
    shut_down(client);
}

#[test]
fn a_panicking_handler_unknown_documents_and_requests_after_shutdown() {
    let mut client = Client::start();
    client.request(1, "initialize", json!({ "capabilities": {} }));
    client.send(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));
    // A handler that panics (a debug-build request for this test): an internal error.
    let panicked = client.request(2, "pcl/panic", Value::Null);
    assert_eq!(panicked["error"]["code"], -32603, "{panicked}");
    // The server goes on; a document it never saw has nothing to say.
    let unknown = client.request(
        3,
        "textDocument/hover",
        json!({ "textDocument": { "uri": "file:///nowhere/x.pp" }, "position": { "line": 0, "character": 0 } }),
    );
    assert!(
        unknown.get("error").is_none() && unknown["result"].is_null(),
        "{unknown}"
    );
    let symbols = client.request(
        4,
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": "file:///nowhere/x.pp" } }),
    );
    assert!(symbols.get("error").is_none(), "{symbols}");
    let shutdown = client.request(5, "shutdown", Value::Null);
    assert!(shutdown.get("error").is_none(), "{shutdown}");
    let refused = client.request(6, "textDocument/hover", json!({}));
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    client.send(&json!({ "jsonrpc": "2.0", "method": "exit" }));
    assert!(client.child.wait().expect("the server exits").success());
}

/// An editor session over a program of two files: an error across files, definition into
/// the other file, a property completed with its documentation, a quick fix applied as
/// the editor applies it, and the diagnostics clearing.
#[test]
fn a_multi_file_session_with_a_quick_fix() {
    let dir = scratch_dir("multi-file");
    let base = "base = \"site\"\n";
    let main = "resource \"site\" \"web:index:Bucket\" {\n  name = bsae\n  \n}\n";
    std::fs::write(dir.join("base.pp"), base).expect("write");
    std::fs::write(dir.join("main.pp"), main).expect("write");
    let base_uri = format!("file://{}/base.pp", dir.display());
    let main_uri = format!("file://{}/main.pp", dir.display());
    let mut client = Client::start();
    client.request(1, "initialize", json!({ "capabilities": {} }));
    client.send(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": { "uri": main_uri, "languageId": "pcl", "version": 1, "text": main },
        }}),
    );
    let errors = next_diagnostics(&mut client, &main_uri);
    assert!(errors.iter().any(|m| m.contains("bsae")), "{errors:?}");
    // The quick fix, applied as an editor applies a workspace edit.
    let (line, column) = position_of(main, "bsae");
    let actions = client.request(2, "textDocument/codeAction", json!({
        "textDocument": { "uri": main_uri },
        "range": { "start": { "line": line, "character": column }, "end": { "line": line, "character": column } },
        "context": { "diagnostics": [] },
    }));
    let edits = &actions["result"][0]["edit"]["changes"][&main_uri];
    assert_eq!(edits[0]["newText"], "base", "{actions}");
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": { "uri": main_uri, "version": 2 },
            "contentChanges": [{ "range": edits[0]["range"], "text": "base" }],
        }}),
    );
    let fixed = next_diagnostics(&mut client, &main_uri);
    assert!(fixed.is_empty(), "{fixed:?}");
    // `base` is declared in the other file.
    let definition = client.request(3, "textDocument/definition", json!({
        "textDocument": { "uri": main_uri }, "position": { "line": line, "character": column + 1 },
    }));
    assert_eq!(definition["result"][0]["uri"], base_uri, "{definition}");
    // On the empty line of the body: the inputs not yet set (`name` is).
    let completion = client.request(
        4,
        "textDocument/completion",
        json!({
            "textDocument": { "uri": main_uri }, "position": { "line": 2, "character": 2 },
        }),
    );
    let labels: Vec<&str> = (completion["result"].as_array().into_iter().flatten())
        .filter_map(|item| item["label"].as_str())
        .collect();
    assert_eq!(
        labels,
        ["storageClass", "tags", "versioning", "website", "options"],
        "{completion}"
    );
    // A page added below: on its empty line, its inputs, required first, with their
    // documentation.
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": { "uri": main_uri, "version": 3 },
            "contentChanges": [{
                "range": { "start": { "line": 4, "character": 0 }, "end": { "line": 4, "character": 0 } },
                "text": "resource \"page\" \"web:index:Page\" {\n  \n}\n",
            }],
        }}),
    );
    let completion = client.request(
        5,
        "textDocument/completion",
        json!({
            "textDocument": { "uri": main_uri }, "position": { "line": 5, "character": 2 },
        }),
    );
    let items = completion["result"].as_array().cloned().unwrap_or_default();
    let name = items
        .iter()
        .find(|item| item["label"] == "bucket")
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        name["documentation"]["value"], "The bucket's name.",
        "{completion}"
    );
    assert!(
        name["sortText"]
            .as_str()
            .is_some_and(|s| s.starts_with('0')),
        "{name}"
    );
    shut_down(client);
}

/// `fetchSchemas`: a saved file's missing package is fetched with the `pulumi` CLI (the
/// stand-in of `tests/data/pulumi-stand-in`, which follows the real CLI's contract for
/// `pulumi package get-schema`) off the main thread, with `$/progress`, and the program is
/// checked again once the schema is in our cache.
#[test]
fn missing_schemas_are_fetched_when_a_file_is_saved() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch_dir("fetch");
    std::fs::create_dir_all(dir.join("bin")).expect("mkdir");
    let stand_in = dir.join("bin/pulumi");
    std::fs::copy(
        pcl_test_utils::test_data_dir().join("pulumi-stand-in/pulumi"),
        &stand_in,
    )
    .expect("copy");
    std::fs::set_permissions(&stand_in, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let text = "resource thing \"fetched:index:Thing\" {\n  size = 3\n}\n";
    std::fs::write(dir.join("main.pp"), text).expect("write");
    let uri = format!("file://{}/main.pp", dir.display());
    let path = format!("{}:/usr/bin:/bin", dir.join("bin").display());
    let (home, cache) = (dir.join("home"), dir.join("cache"));
    let mut client = Client::start_with_env(&[
        ("PATH", path.as_ref()),
        ("PULUMI_HOME", home.as_os_str()),
        ("XDG_CACHE_HOME", cache.as_os_str()),
        ("PCL_SCHEMA_PATH", "".as_ref()),
    ]);
    client.request(
        1,
        "initialize",
        json!({ "capabilities": { "window": { "workDoneProgress": true } },
                "initializationOptions": { "fetchSchemas": true } }),
    );
    client.send(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": { "uri": uri, "languageId": "pcl", "version": 1, "text": text } }}),
    );
    let missing = next_diagnostics(&mut client, &uri);
    assert!(
        missing
            .iter()
            .any(|m| m.contains("no schema found for package 'fetched'")),
        "{missing:?}"
    );
    client.send(&json!({ "jsonrpc": "2.0", "method": "textDocument/didSave",
        "params": { "textDocument": { "uri": uri } } }));
    let create = next_server_request(&mut client);
    assert_eq!(
        create["method"], "window/workDoneProgress/create",
        "{create}"
    );
    client.send(&json!({ "jsonrpc": "2.0", "id": create["id"], "result": null }));
    let begin = client.wait_for(None, Some("$/progress"));
    assert_eq!(begin["params"]["value"]["kind"], "begin", "{begin}");
    let end = client.wait_for(None, Some("$/progress"));
    assert_eq!(end["params"]["value"]["kind"], "end", "{end}");
    // Checked again with the fetched schema: clean.
    let cleaned = (0..5).any(|_| next_diagnostics(&mut client, &uri).is_empty());
    assert!(
        cleaned,
        "the program was not checked again with the fetched schema"
    );
    assert!(cache.join("pcl/schemas/fetched-2.0.0.json").is_file());
    shut_down(client);
}

/// Stack files open in the editor get their config checked against the program at the
/// project's `main`, and again when the program changes.
#[test]
fn stack_files_are_checked_against_the_program() {
    let project = pcl_test_utils::test_data_dir().join("projects/mistakes");
    let stack_path = project.join("Pulumi.dev.yaml");
    let text = std::fs::read_to_string(&stack_path).expect("the stack file is there");
    let uri = format!("file://{}", stack_path.display());
    let home = pcl_test_utils::test_data_dir().join("pulumi-home");
    let mut client = Client::start_with_env(&[
        ("PULUMI_HOME", home.as_os_str()),
        ("PCL_SCHEMA_PATH", "".as_ref()),
    ]);
    client.request(1, "initialize", json!({ "capabilities": {} }));
    client.send(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": text } }}),
    );
    let found = next_diagnostics(&mut client, &uri);
    assert!(
        found.iter().any(|m| m.contains("eighty")),
        "the port's value is reported: {found:?}"
    );
    // Fixed in the editor: that diagnostic goes.
    let fixed = text.replace("shop:port: eighty", "shop:port: 80");
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": { "uri": uri, "version": 2 },
        "contentChanges": [{ "text": fixed }] }}),
    );
    let after = next_diagnostics(&mut client, &uri);
    assert!(!after.iter().any(|m| m.contains("eighty")), "{after:?}");
    assert_eq!(after.len(), found.len() - 1, "{found:?}\n{after:?}");
    // The port's line deleted: the stack shows the required config it no longer sets.
    let unset: String = (fixed.lines())
        .filter(|line| !line.contains("shop:port"))
        .map(|line| format!("{line}\n"))
        .collect();
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": { "uri": uri, "version": 3 },
        "contentChanges": [{ "text": unset }] }}),
    );
    let unset = next_diagnostics(&mut client, &uri);
    assert!(
        unset
            .iter()
            .any(|m| m.starts_with("the required config `port` is not set")),
        "{unset:?}"
    );
    shut_down(client);
}

/// A required config a stack does not set is shown at the config in the program, as `pcl
/// check` reports it, with no stack file open; an edit to the stack that sets it takes it
/// back. A declaration in the project file without a value is shown in the project file.
#[test]
fn a_config_a_stack_does_not_set_is_shown_in_the_program() {
    let dir = scratch_dir("unset-config");
    let project = "name: shop\nruntime: pcl\nconfig:\n  shop:greeting:\n    type: string\n";
    let stack = "config:\n  shop:greeting: hi\n";
    let main = "config port \"int\" {}\n\noutput port {\n  value = port\n}\n";
    std::fs::write(dir.join("Pulumi.yaml"), project).expect("written");
    std::fs::write(dir.join("Pulumi.dev.yaml"), stack).expect("written");
    std::fs::write(dir.join("main.pp"), main).expect("written");
    let main_uri = format!("file://{}/main.pp", dir.display());
    let stack_uri = format!("file://{}/Pulumi.dev.yaml", dir.display());
    let project_uri = format!("file://{}/Pulumi.yaml", dir.display());
    let mut client = Client::start();
    client.initialize();
    let published = client.open(&main_uri, main);
    let found = &published["params"]["diagnostics"];
    assert_eq!(found.as_array().map(Vec::len), Some(1), "{published}");
    let stack_path = dir.join("Pulumi.dev.yaml");
    assert_eq!(
        found[0]["message"].as_str().and_then(|m| m.lines().next()),
        Some(
            format!(
                "the required config `port` is not set in `{}`",
                stack_path.display()
            )
            .as_str()
        ),
    );
    assert_eq!(found[0]["code"], "PCL5008");
    assert_eq!(
        found[0]["range"]["start"],
        json!({ "line": 0, "character": 7 })
    );
    // The stack opened and its setting removed: the stack shows the declaration it no
    // longer sets; then the port set there: the program's error goes.
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": { "uri": stack_uri, "languageId": "yaml", "version": 1, "text": stack } }}),
    );
    assert_eq!(next_diagnostics(&mut client, &stack_uri).len(), 1);
    let set = "config:\n  shop:greeting: hi\n  shop:port: 80\n";
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": { "uri": stack_uri, "version": 2 },
        "contentChanges": [{ "text": set }] }}),
    );
    assert_eq!(
        next_diagnostics(&mut client, &main_uri),
        Vec::<String>::new()
    );
    // The greeting no longer set: the open project file shows its declaration unset.
    let unset = "config:\n  shop:port: 80\n";
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": { "uri": stack_uri, "version": 3 },
        "contentChanges": [{ "text": unset }] }}),
    );
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": { "uri": project_uri, "languageId": "yaml", "version": 1, "text": project } }}),
    );
    let in_project = next_diagnostics(&mut client, &project_uri);
    assert_eq!(in_project.len(), 1, "{in_project:?}");
    assert!(
        in_project[0].starts_with(
            "the config `greeting`, which the project file declares without a value, is not set in"
        ),
        "{in_project:?}"
    );
    shut_down(client);
}

/// A stack file no editor shows has its diagnostics published with its program's files,
/// as `pcl check` reports them, and taken back with them.
#[test]
fn a_stack_file_no_editor_shows_is_published_with_its_program() {
    let dir = scratch_dir("unopened-stack");
    let main = "config port \"int\" {}\n\noutput port {\n  value = port\n}\n";
    std::fs::write(dir.join("Pulumi.yaml"), "name: shop\nruntime: pcl\n").expect("written");
    std::fs::write(dir.join("Pulumi.dev.yaml"), "config:\n  shop:prot: 80\n").expect("written");
    std::fs::write(dir.join("main.pp"), main).expect("written");
    let uri = format!("file://{}/main.pp", dir.display());
    let mut client = Client::start();
    client.initialize();
    let published = client.open(&uri, main);
    let code = &published["params"]["diagnostics"][0]["code"];
    assert_eq!(code, "PCL5008", "{published}");
    let stack = published_next(&mut client, 1);
    assert_eq!(
        stack,
        [(
            "Pulumi.dev.yaml".to_owned(),
            vec!["the program has no config `prot`".to_owned()]
        )]
    );
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didClose",
        "params": { "textDocument": { "uri": uri } } }),
    );
    assert_eq!(
        published_next(&mut client, 2),
        [
            ("Pulumi.dev.yaml".to_owned(), vec![]),
            ("main.pp".to_owned(), vec![])
        ]
    );
    shut_down(client);
}

/// A stack file in the project's `stackConfigDir` (`./config`): its edits in the editor are
/// what the program is checked against, and it is never also published as a file no
/// editor shows (its path is the open document's, not `./config`'s spelling).
#[test]
fn a_stack_in_a_stack_config_dir_is_checked_as_edited() {
    let dir = scratch_dir("stack-config-dir");
    std::fs::create_dir_all(dir.join("config")).expect("mkdir");
    let project = "name: shop\nruntime: pcl\nstackConfigDir: ./config\n";
    let stack = "config:\n  shop:other: 1\n";
    let main = "config port \"int\" {}\n\noutput port {\n  value = port\n}\n";
    std::fs::write(dir.join("Pulumi.yaml"), project).expect("written");
    std::fs::write(dir.join("config/Pulumi.dev.yaml"), stack).expect("written");
    std::fs::write(dir.join("main.pp"), main).expect("written");
    let main_uri = format!("file://{}/main.pp", dir.display());
    let stack_uri = format!("file://{}/config/Pulumi.dev.yaml", dir.display());
    let mut client = Client::start();
    client.initialize();
    let published = client.open(&main_uri, main);
    assert_eq!(published["params"]["diagnostics"][0]["code"], "PCL5008");
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": { "uri": stack_uri, "languageId": "yaml", "version": 1, "text": stack } }}),
    );
    let open = next_diagnostics(&mut client, &stack_uri);
    assert!(
        open.iter()
            .any(|m| m.starts_with("the program has no config `other`")),
        "{open:?}"
    );
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": { "uri": stack_uri, "version": 2 },
        "contentChanges": [{ "text": "config:\n  shop:port: 80\n" }] }}),
    );
    // Every publication from now on, the delayed pass's included: the program clean, the
    // stack clean at its version.
    std::thread::sleep(std::time::Duration::from_millis(800));
    client.send(&json!({ "jsonrpc": "2.0", "id": 7, "method": "shutdown" }));
    let mut main_clean = false;
    loop {
        let message = client.receive();
        if message["id"] == 7 {
            break;
        }
        if message["method"] != "textDocument/publishDiagnostics" {
            continue;
        }
        let params = &message["params"];
        assert_eq!(params["diagnostics"], json!([]), "{message}");
        if params["uri"] == stack_uri.as_str() {
            assert_eq!(params["version"], 2, "{message}");
        }
        main_clean |= params["uri"] == main_uri.as_str();
    }
    assert!(main_clean, "the program was not published clean");
    client.send(&json!({ "jsonrpc": "2.0", "method": "exit" }));
    assert!(client.child.wait().expect("the server exits").success());
}

/// A file Pulumi does not read, open beside the project file, says so: a second project
/// file, a stack file of another extension.
#[test]
fn files_pulumi_does_not_read_say_so() {
    let data = pcl_test_utils::test_data_dir().join("projects");
    let mut client = Client::start();
    client.initialize();
    for (file, expected) in [
        (
            "two-files/Pulumi.yaml",
            "Pulumi does not read `Pulumi.yaml`: `Pulumi.json` beside it is the project file",
        ),
        (
            "mistakes/Pulumi.qa.yml",
            "Pulumi does not read `Pulumi.qa.yml` as a stack file of `Pulumi.yaml`",
        ),
    ] {
        let path = data.join(file);
        let text = std::fs::read_to_string(&path).expect("the fixture");
        let uri = format!("file://{}", path.display());
        client.send(
            &json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": text } }}),
        );
        let found = next_diagnostics(&mut client, &uri);
        let first_lines: Vec<&str> = found.iter().filter_map(|m| m.lines().next()).collect();
        assert_eq!(first_lines, [expected], "{file}");
    }
    shut_down(client);
}

/// An edit to a component republishes the open programs that use it (directly or through
/// another component): what they are checked against changed, though they did not.
#[test]
fn a_component_edit_republishes_its_users() {
    let dir = scratch_dir("component-users");
    std::fs::create_dir_all(dir.join("web/inner")).expect("mkdir");
    let main = "component site \"./web\" {\n  size = 2\n}\n";
    let web = "config size \"int\" {}\n\ncomponent deep \"./inner\" {\n  size = size\n}\n";
    let inner = "config size \"int\" {}\n";
    std::fs::write(dir.join("main.pp"), main).expect("written");
    std::fs::write(dir.join("web/site.pp"), web).expect("written");
    std::fs::write(dir.join("web/inner/main.pp"), inner).expect("written");
    let main_uri = format!("file://{}/main.pp", dir.display());
    let web_uri = format!("file://{}/web/site.pp", dir.display());
    let inner_uri = format!("file://{}/web/inner/main.pp", dir.display());
    let mut client = Client::start();
    client.initialize();
    for (uri, text) in [(&main_uri, main), (&web_uri, web), (&inner_uri, inner)] {
        let published = client.open(uri, text);
        assert_eq!(published["params"]["diagnostics"], json!([]), "{published}");
    }
    // The inner component's config renamed: its user `web` and, through `web`, nothing
    // else (`main` gives `web` its `size`, which is unchanged).
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": { "uri": inner_uri, "version": 2 },
        "contentChanges": [{ "text": "config width \"int\" {}\n" }] }}),
    );
    let found = next_diagnostics(&mut client, &web_uri);
    assert!(
        found.iter().any(|m| m.contains("has no input 'size'")),
        "{found:?}"
    );
    // `web`'s own config renamed: `main`, its user, is told.
    let renamed = web
        .replace("config size", "config width")
        .replace("= size", "= width");
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": { "uri": web_uri, "version": 2 },
        "contentChanges": [{ "text": renamed }] }}),
    );
    let found = next_diagnostics(&mut client, &main_uri);
    assert!(
        found.iter().any(|m| m.contains("has no input 'size'")),
        "{found:?}"
    );
    // `web` closed without saving: read from disk again, where `size` is, and `main` is
    // told.
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didClose",
        "params": { "textDocument": { "uri": web_uri } } }),
    );
    let published = published_until_answered(&mut client, 3);
    assert!(
        published.contains(&("main.pp".to_owned(), Vec::new())),
        "{published:?}"
    );
    shut_down(client);
}

/// An open project file whose program Pulumi cannot run shows it, as `pcl check` says:
/// no `main` while the program is in a subdirectory (at the first line), then a `main`
/// that names nothing (at its value); the right `main` clears it.
#[test]
fn a_project_file_without_its_program_says_where_it_is() {
    let dir = scratch_dir("main-forgotten");
    std::fs::create_dir_all(dir.join("infra")).expect("mkdir");
    std::fs::write(dir.join("infra/main.pp"), "x = 1\n").expect("written");
    let text = "name: forgot\nruntime: pcl\n";
    std::fs::write(dir.join("Pulumi.yaml"), text).expect("written");
    let uri = format!("file://{}/Pulumi.yaml", dir.display());
    let mut client = Client::start();
    client.initialize();
    let published = client.open(&uri, text);
    let diagnostics = &published["params"]["diagnostics"];
    let message = diagnostics[0]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("no *.pp file in") && message.contains("add `main: infra`"),
        "{published}"
    );
    assert_eq!(diagnostics[0]["range"]["start"]["line"], 0, "{published}");
    let misspelt = format!("{text}main: infr\n");
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": { "uri": uri, "version": 2 },
        "contentChanges": [{ "text": misspelt }] }}),
    );
    let found = next_diagnostics(&mut client, &uri);
    assert!(
        found
            .iter()
            .any(|m| m.starts_with("`main: infr`") && m.contains("does not exist")),
        "{found:?}"
    );
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": { "uri": uri, "version": 3 },
        "contentChanges": [{ "text": format!("{text}main: infra\n") }] }}),
    );
    let fixed = next_diagnostics(&mut client, &uri);
    assert!(fixed.is_empty(), "{fixed:?}");
    shut_down(client);
}

/// A package named for the first time while typing is loaded then, not at the next save:
/// its resource is checked against its schema at once.
#[test]
fn a_package_typed_into_a_document_loads_its_schema() {
    let dir = scratch_dir("typed-package");
    let path = dir.join("main.pp");
    std::fs::write(&path, "x = 1\n").expect("written");
    let uri = format!("file://{}", path.display());
    let mut client = Client::start();
    client.initialize();
    let published = client.open(&uri, "x = 1\n");
    assert_eq!(published["params"]["diagnostics"], json!([]), "{published}");
    let typed = "x = 1\n\nresource site \"web:index:Bucket\" {\n  nmae = \"site\"\n}\n";
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": { "uri": uri, "version": 2 },
            "contentChanges": [{ "text": typed }],
        }}),
    );
    let published = client.wait_for(None, Some("textDocument/publishDiagnostics"));
    let codes: Vec<&str> = (published["params"]["diagnostics"].as_array().into_iter())
        .flatten()
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert!(codes == ["PCL4006"], "{published}");
}

/// A diagnostic's places in the program's other files come as related information with
/// those files' locations (a name declared in `a.pp` and again in `b.pp`).
#[test]
fn related_places_in_other_files_are_kept() {
    let dir = scratch_dir("related-files");
    std::fs::write(dir.join("a.pp"), "# first\nregion = \"north\"\n").expect("written");
    let main = "x = 1\nregion = \"south\"\n";
    let path = dir.join("b.pp");
    std::fs::write(&path, main).expect("written");
    let uri = format!("file://{}", path.display());
    let mut client = Client::start();
    client.initialize();
    let published = client.open(&uri, main);
    let duplicate = &published["params"]["diagnostics"][0];
    assert_eq!(duplicate["code"], "PCL4002", "{published}");
    let related = &duplicate["relatedInformation"][0];
    assert_eq!(
        related["location"]["uri"],
        format!("file://{}", dir.join("a.pp").display()),
        "{published}"
    );
    assert_eq!(
        related["location"]["range"]["start"]["line"], 1,
        "{published}"
    );
}

/// Documents with no file (`untitled:`) are programs of their own: two scratch buffers
/// that declare the same name do not clash, and neither joins the files of the server's
/// working directory.
#[test]
fn untitled_documents_are_programs_of_their_own() {
    let mut client = Client::start();
    client.initialize();
    for (uri, text) in [
        ("untitled:Untitled-1", "y = 1\n"),
        ("untitled:Untitled-2", "y = 2\nz = y\n"),
    ] {
        let published = client.open(uri, text);
        assert_eq!(published["params"]["uri"], uri, "{published}");
        assert_eq!(published["params"]["diagnostics"], json!([]), "{published}");
    }
}

/// `schemaPath` may be one directory written as a string; settings of the wrong shape are
/// not applied, and the server says so.
#[test]
fn settings_take_one_schema_folder_and_report_a_wrong_shape() {
    let dir = scratch_dir("settings-shape");
    let path = dir.join("main.pp");
    std::fs::write(&path, USES_WEB).expect("written");
    let uri = format!("file://{}", path.display());
    let mut client = Client::start_with_schema_path(std::path::Path::new(""));
    client.initialize();
    let published = client.open(&uri, USES_WEB);
    assert_eq!(
        published["params"]["diagnostics"][0]["code"], "PCL4009",
        "{published}"
    );
    let schemas = pcl_test_utils::test_data_dir().join("programs/schemas");
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "workspace/didChangeConfiguration",
        "params": { "settings": { "pcl": { "schemaPath": schemas } } } }),
    );
    let published = client.wait_for(None, Some("textDocument/publishDiagnostics"));
    assert_eq!(published["params"]["diagnostics"], json!([]), "{published}");
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "workspace/didChangeConfiguration",
        "params": { "settings": { "pcl": { "schemaPath": 42 } } } }),
    );
    let shown = client.wait_for(None, Some("window/showMessage"));
    assert!(
        (shown["params"]["message"].as_str()).is_some_and(|m| m.contains("not applied")),
        "{shown}"
    );
    // `~` is the home directory; a directory that is not there is named in a warning.
    client.send(
        &json!({ "jsonrpc": "2.0", "method": "workspace/didChangeConfiguration",
        "params": { "settings": { "pcl": { "schemaPath": "~/no-such-pcl-schemas" } } } }),
    );
    let shown = client.wait_for(None, Some("window/showMessage"));
    let home = std::env::var("HOME").unwrap_or_default();
    assert!(
        (shown["params"]["message"].as_str()).is_some_and(|m| m.contains(&format!(
            "schemaPath `{home}/no-such-pcl-schemas` is no directory"
        ))),
        "{shown}"
    );
}

/// A typed `"` in an enum-typed input opens the enum's values, each replacing the quotes'
/// contents; a `for` variable is renamed with its uses.
#[test]
fn enum_values_after_a_quote_and_for_variable_rename() {
    let dir = scratch_dir("enum");
    let path = dir.join("main.pp");
    let uri = format!("file://{}", path.display());
    let text = "resource site \"web:index:Bucket\" {\n  name         = \"site\"\n  storageClass = \"\"\n}\n\nnames = [for n in [\"a\"] : \"${n}-x\"]\n";
    std::fs::write(&path, text).expect("write");
    let mut client = client_with_open_document(&uri, text);
    let (line, column) = position_of(text, "\"\"\n}");
    let completion = client.request(
        2,
        "textDocument/completion",
        json!({
            "textDocument": { "uri": uri }, "position": { "line": line, "character": column + 1 },
            "context": { "triggerKind": 2, "triggerCharacter": "\"" },
        }),
    );
    let items: Vec<(&str, i64)> = (completion["result"].as_array().into_iter().flatten())
        .filter_map(|c| Some((c["label"].as_str()?, c["kind"].as_i64()?)))
        .collect();
    // 20: EnumMember.
    assert_eq!(items, [("STANDARD", 20), ("ARCHIVE", 20)], "{completion}");
    let edit = &completion["result"][0]["textEdit"];
    assert_eq!(
        edit["range"]["start"]["character"],
        json!(column + 1),
        "{edit}"
    );
    let renamed = rename_at(&mut client, 3, (&uri, text), "n in", "name");
    let edits = &renamed["result"]["changes"][&uri];
    assert_eq!(
        apply_lsp_edits(text, edits),
        text.replace("n in", "name in").replace("${n}", "${name}"),
        "{renamed}"
    );
    shut_down(client);
}

#[test]
fn a_component_opened_alone_knows_its_callers() {
    // An editor's single-file mode: no workspace folder, only the component's file open.
    let dir = scratch_dir("component-alone");
    let component_dir = dir.join("net");
    std::fs::create_dir_all(&component_dir).expect("mkdir");
    let caller = "component \"network\" \"./net\" {\n  cidr = \"10.0.0.0/16\"\n}\n\noutput \"vpc\" {\n  value = network.vpcId\n}\n";
    std::fs::write(dir.join("main.pp"), caller).expect("write");
    let path = component_dir.join("net.pp");
    let uri = format!("file://{}", path.display());
    let text = "config \"cidr\" \"string\" {}\n\noutput \"vpcId\" {\n  value = cidr\n}\n";
    std::fs::write(&path, text).expect("write");
    let mut client = client_with_open_document(&uri, text);
    let renamed = rename_at(&mut client, 2, (&uri, text), "cidr\"", "cidrBlock");
    let caller_uri = format!("file://{}", dir.join("main.pp").display());
    let changes = &renamed["result"]["changes"];
    assert_eq!(
        apply_lsp_edits(caller, &changes[&caller_uri]),
        caller.replace("  cidr =", "  cidrBlock ="),
        "{renamed}"
    );
    assert_eq!(
        apply_lsp_edits(text, &changes[&uri]),
        // The label keeps its quotes.
        text.replace("\"cidr\"", "\"cidrBlock\"")
            .replace("= cidr", "= cidrBlock"),
        "{renamed}"
    );
    shut_down(client);
}

#[test]
fn files_a_project_program_reads_are_looked_for() {
    let dir = scratch_dir("local-files");
    std::fs::write(dir.join("Pulumi.yaml"), "name: site\nruntime: pcl\n").expect("write");
    std::fs::write(dir.join("banner.txt"), "hello\n").expect("write");
    let path = dir.join("main.pp");
    let uri = format!("file://{}", path.display());
    let text = "banner = readFile(\"./banner.txt\")\nterms = readFile(\"./terms.txt\")\n";
    std::fs::write(&path, text).expect("write");
    let mut client = Client::start();
    client.initialize();
    let published = client.open(&uri, text);
    let found = &published["params"]["diagnostics"];
    assert_eq!(found.as_array().map(Vec::len), Some(1), "{published}");
    assert!(
        (found[0]["message"].as_str())
            .is_some_and(|m| m.starts_with("no file `./terms.txt` in the project\n")),
        "{published}"
    );
    shut_down(client);
}

/// Renaming a config a project's stacks set renames its keys in the stack files too (as
/// `shop:size` and as `size` alone), and only those: another namespace's and a config with
/// a logical name of its own are left as they are.
#[test]
fn renaming_a_config_renames_its_keys_in_the_stack_files() {
    let dir = scratch_dir("config-rename");
    std::fs::write(dir.join("Pulumi.yaml"), "name: shop\nruntime: pcl\n").expect("write");
    let dev = "config:\n  shop:size: 2\n  aws:size: 3\n  shop:sizes: 4\n";
    let prod = "config:\n  size: 5\n  \"shop:label\": x\n";
    std::fs::write(dir.join("Pulumi.dev.yaml"), dev).expect("write");
    std::fs::write(dir.join("Pulumi.prod.yaml"), prod).expect("write");
    let path = dir.join("main.pp");
    let uri = format!("file://{}", path.display());
    let text = "config size \"int\" {}\n\nconfig sizes \"int\" {}\n\nconfig tag \"string\" {\n  __logicalName = \"label\"\n}\n\noutput total {\n  value = size + sizes\n}\n\noutput named {\n  value = tag\n}\n\ncomponent part \"./part\" {\n  size = size\n}\n";
    std::fs::write(&path, text).expect("write");
    std::fs::create_dir_all(dir.join("part")).expect("mkdir");
    std::fs::write(dir.join("part/main.pp"), "config size \"int\" {}\n").expect("write");
    let mut client = client_with_open_document(&uri, text);
    let renamed = rename_at(&mut client, 2, (&uri, text), "size \"", "count");
    let changes = &renamed["result"]["changes"];
    let uri_of = |name: &str| format!("file://{}", dir.join(name).display());
    assert_eq!(
        apply_lsp_edits(dev, &changes[&uri_of("Pulumi.dev.yaml")]),
        dev.replace("shop:size:", "shop:count:"),
        "{renamed}"
    );
    assert_eq!(
        apply_lsp_edits(prod, &changes[&uri_of("Pulumi.prod.yaml")]),
        prod.replace("  size:", "  count:"),
        "{renamed}"
    );
    // A config whose logical name stacks use: its stack keys stay.
    let renamed = rename_at(&mut client, 3, (&uri, text), "tag \"", "kind");
    let changes = &renamed["result"]["changes"];
    assert!(
        changes.get(uri_of("Pulumi.prod.yaml")).is_none(),
        "{renamed}"
    );
    // A component's config, renamed from the block that sets it: no key of this project.
    let renamed = rename_at(&mut client, 4, (&uri, text), "size = size", "width");
    let changes = &renamed["result"]["changes"];
    assert!(
        changes.get(uri_of("Pulumi.dev.yaml")).is_none(),
        "{renamed}"
    );
    shut_down(client);
}

//! Fuzz target: the language server's message loop. An `arbitrary` session of editor
//! messages (open, edits at any range, requests at any position, cancellations, garbage
//! parameters, unknown methods) is played against an in-memory server, which must answer
//! every request, never panic and never hang, and shut down cleanly at the end.
//!
//! `cargo xtask fuzz lsp`.

#![no_main]

use std::time::Duration;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use lsp_server::{Message, Notification, Request, RequestId};
use serde_json::{Value, json};

const URI: &str = "file:///fuzz/main.pp";

#[derive(Arbitrary, Debug)]
enum Step {
    Change { start: (u8, u8), end: (u8, u8), text: String },
    Replace(String),
    Hover(u8, u8),
    Definition(u8, u8),
    References(u8, u8),
    Rename(u8, u8, String),
    Completion(u8, u8),
    Signature(u8, u8),
    Symbols,
    Tokens,
    Folding,
    Hints,
    CodeAction(u8, u8),
    Cancel(u8),
    Unknown(String),
    BadParams(u8),
}

#[derive(Arbitrary, Debug)]
struct Session {
    text: String,
    steps: Vec<Step>,
}

fn position(line: u8, character: u8) -> Value {
    json!({ "line": line % 40, "character": character })
}

fn at(line: u8, character: u8) -> Value {
    json!({ "textDocument": { "uri": URI }, "position": position(line, character) })
}

fuzz_target!(|session: Session| {
    let (server, client) = lsp_server::Connection::memory();
    let worker = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || pcl_lsp::serve(&server).map_err(|e| e.to_string()));
    let Ok(worker) = worker else { return };
    let request = |id: i32, method: &str, params: Value| {
        Message::Request(Request { id: RequestId::from(id), method: method.to_owned(), params })
    };
    let notify = |method: &str, params: Value| {
        Message::Notification(Notification { method: method.to_owned(), params })
    };
    let send = |message: Message| client.sender.send(message).expect("the server reads");
    send(request(0, "initialize", json!({ "capabilities": {} })));
    send(notify("initialized", json!({})));
    send(notify("textDocument/didOpen", json!({ "textDocument": {
        "uri": URI, "languageId": "pcl", "version": 1, "text": session.text } })));
    let mut expected = 1;
    let mut version = 1;
    for (i, step) in session.steps.iter().take(64).enumerate() {
        let id = i as i32 + 1;
        let (method, params) = match step {
            Step::Change { start, end, text } => {
                version += 1;
                send(notify("textDocument/didChange", json!({
                    "textDocument": { "uri": URI, "version": version },
                    "contentChanges": [{ "range": { "start": position(start.0, start.1), "end": position(end.0, end.1) }, "text": text }] })));
                continue;
            }
            Step::Replace(text) => {
                version += 1;
                send(notify("textDocument/didChange", json!({
                    "textDocument": { "uri": URI, "version": version }, "contentChanges": [{ "text": text }] })));
                continue;
            }
            Step::Cancel(n) => {
                send(notify("$/cancelRequest", json!({ "id": i32::from(*n) })));
                continue;
            }
            Step::Hover(l, c) => ("textDocument/hover", at(*l, *c)),
            Step::Definition(l, c) => ("textDocument/definition", at(*l, *c)),
            Step::References(l, c) => {
                let mut params = at(*l, *c);
                params["context"] = json!({ "includeDeclaration": true });
                ("textDocument/references", params)
            }
            Step::Rename(l, c, name) => {
                let mut params = at(*l, *c);
                params["newName"] = json!(name);
                ("textDocument/rename", params)
            }
            Step::Completion(l, c) => ("textDocument/completion", at(*l, *c)),
            Step::Signature(l, c) => ("textDocument/signatureHelp", at(*l, *c)),
            Step::Symbols => ("textDocument/documentSymbol", json!({ "textDocument": { "uri": URI } })),
            Step::Tokens => ("textDocument/semanticTokens/full", json!({ "textDocument": { "uri": URI } })),
            Step::Folding => ("textDocument/foldingRange", json!({ "textDocument": { "uri": URI } })),
            Step::Hints => ("textDocument/inlayHint", json!({ "textDocument": { "uri": URI },
                "range": { "start": position(0, 0), "end": position(39, 255) } })),
            Step::CodeAction(l, c) => ("textDocument/codeAction", json!({ "textDocument": { "uri": URI },
                "range": { "start": position(*l, *c), "end": position(*l, c.saturating_add(4)) },
                "context": { "diagnostics": [] } })),
            Step::Unknown(method) => (method.as_str(), json!({})),
            Step::BadParams(n) => ("textDocument/hover", json!({ "garbage": n })),
        };
        if method == "shutdown" || method == "exit" {
            continue;
        }
        send(request(id, method, params));
        expected += 1;
    }
    // Every request is answered, in time.
    let mut answered = 0;
    while answered < expected {
        match client.receiver.recv_timeout(Duration::from_secs(20)) {
            Ok(Message::Response(_)) => answered += 1,
            Ok(_) => {}
            Err(_) => panic!("the server stopped answering after {answered} of {expected} requests"),
        }
    }
    send(request(10_000, "shutdown", Value::Null));
    loop {
        match client.receiver.recv_timeout(Duration::from_secs(20)) {
            Ok(Message::Response(response)) if response.id == RequestId::from(10_000) => break,
            Ok(_) => {}
            Err(_) => panic!("no answer to shutdown"),
        }
    }
    send(notify("exit", Value::Null));
    drop(client);
    let result = worker.join().expect("the server does not panic");
    assert!(result.is_ok(), "the session ends cleanly: {result:?}");
});

//! The language server driven as an editor drives it, over an in-memory connection (the
//! same message loop as `pcl lsp`, without the stdio framing), on a generated program of
//! about 10,000 lines with its schema: the latency from `didChange` to the
//! `publishDiagnostics` for it (after a literal edit, after an edit that changes the type
//! of a local a seventh of the resources read, and after an edit that makes and then
//! fixes an error), and of a hover and a completion sent right after an edit (so they
//! wait for the edit to be applied), as p50/p99 over many edits.
//!
//! `cargo bench -p pcl-benches --bench lsp`. Goals (the language-server and incremental
//! issues): diagnostics p99 under 5 ms after a literal edit and under 10 ms after a
//! type-changing or error-making edit, hover and completion p99 under 20 ms.

use std::time::{Duration, Instant};

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};

/// Edits per measurement.
const EDITS: usize = 200;
/// Resources of the generated program: about 10,000 lines.
const RESOURCES: usize = 600;

#[allow(clippy::print_stdout)]
fn main() {
    // `cargo bench` passes `--bench`; a filter that names something else skips this file.
    if std::env::args()
        .skip(1)
        .any(|arg| !arg.starts_with('-') && !"lsp".contains(arg.as_str()))
    {
        return;
    }
    let program = pcl_test_utils::checked::checked_program(RESOURCES, 1, 11);
    let schemas = std::env::temp_dir().join(format!("pcl-lsp-bench-{}", std::process::id()));
    std::fs::create_dir_all(&schemas).expect("a temporary directory");
    std::fs::write(schemas.join("gen-1.0.0.json"), &program.schema).expect("the schema is written");
    // A local that every seventh resource's tags read, as in the `check` bench's type change.
    let generated: String = program.files.into_iter().map(|(_, text)| text).collect();
    let text = format!(
        "teamName = \"t\"\n{}",
        generated.replace("team = \"t0\"", "team = teamName")
    );
    let uri = format!("file://{}/main.pp", schemas.display());
    let mut session = Session::start(&schemas);
    session.notify(
        "textDocument/didOpen",
        json!({ "textDocument": {
        "uri": uri, "languageId": "pcl", "version": 1, "text": text } }),
    );
    session.diagnostics(&uri, 1, 0);

    // Edits flip one digit of a literal in the middle of the file; hover and completion
    // go to a reference and a body line next to it.
    let middle = text.len() / 2;
    let edit_at = middle + text[middle..].find("size    = ").expect("a size attribute") + 10;
    let (edit_line, edit_column) = line_column(&text, edit_at);
    let hover_at = edit_at + text[edit_at..].find("refId = ").expect("a reference") + 9;
    let (hover_line, hover_column) = line_column(&text, hover_at);
    // The type change replaces the local's value `"t"` (3 characters) by `2` and back;
    // the error edit appends `x` to the reference `refId = rN.arn` and takes it away.
    let type_at = "teamName = ".len();
    let (type_line, type_column) = line_column(&text, type_at);
    let error_at = hover_at
        + text[hover_at..]
            .find('\n')
            .expect("the reference's line end");
    let (error_line, error_column) = line_column(&text, error_at);
    let mut versions = 1;
    let mut digit = 0;
    let mut edit = |session: &mut Session, version: &mut i32| {
        digit = digit % 9 + 1;
        session.replace(
            &uri,
            version,
            (edit_line, edit_column),
            1,
            &digit.to_string(),
        )
    };
    let mut diagnostics = Vec::new();
    let mut type_changes = Vec::new();
    let mut errors = Vec::new();
    let mut hovers = Vec::new();
    let mut completions = Vec::new();
    let hover_params = json!({ "textDocument": { "uri": uri },
        "position": { "line": hover_line, "character": hover_column } });
    let completion_params = json!({ "textDocument": { "uri": uri },
        "position": { "line": hover_line, "character": 2 } });
    for _ in 0..EDITS {
        let start = Instant::now();
        let version = edit(&mut session, &mut versions);
        session.diagnostics(&uri, version, 0);
        diagnostics.push(start.elapsed());

        for (from, to) in [(3, "2"), (1, "\"t\"")] {
            let start = Instant::now();
            let version = session.replace(&uri, &mut versions, (type_line, type_column), from, to);
            session.diagnostics(&uri, version, 0);
            type_changes.push(start.elapsed());
        }
        for (from, to, found) in [(0, "x", 1), (1, "", 0)] {
            let start = Instant::now();
            let version =
                session.replace(&uri, &mut versions, (error_line, error_column), from, to);
            session.diagnostics(&uri, version, found);
            errors.push(start.elapsed());
        }

        let version = edit(&mut session, &mut versions);
        let start = Instant::now();
        let hover = session.request("textDocument/hover", hover_params.clone());
        hovers.push(start.elapsed());
        assert!(hover["contents"].is_object(), "a hover: {hover}");
        session.diagnostics(&uri, version, 0);

        let version = edit(&mut session, &mut versions);
        let start = Instant::now();
        let completion = session.request("textDocument/completion", completion_params.clone());
        completions.push(start.elapsed());
        assert!(
            completion.as_array().is_some_and(|c| !c.is_empty()),
            "completions: {completion}"
        );
        session.diagnostics(&uri, version, 0);
    }
    session.finish();
    let _ = std::fs::remove_dir_all(&schemas);
    println!(
        "pcl lsp on {} lines ({RESOURCES} resources, one file), {EDITS} edits:",
        text.lines().count()
    );
    report("didChange → publishDiagnostics", &mut diagnostics, 5);
    report("  after a type-changing edit", &mut type_changes, 10);
    report("  after making and fixing an error", &mut errors, 10);
    report("hover right after an edit", &mut hovers, 20);
    report("completion right after an edit", &mut completions, 20);
}

#[allow(clippy::print_stdout)]
fn report(what: &str, times: &mut [Duration], goal_ms: u64) {
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    let (p50, p99) = (at(0.50), at(0.99));
    let verdict = if p99 < Duration::from_millis(goal_ms) {
        "✓"
    } else {
        "✗"
    };
    println!(
        "  {what:<34} p50 {:>7.2} ms  p99 {:>7.2} ms  (goal p99 < {goal_ms} ms {verdict})",
        p50.as_secs_f64() * 1e3,
        p99.as_secs_f64() * 1e3
    );
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let line = text[..offset].matches('\n').count();
    let column = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1);
    (line, column)
}

/// A client of an in-memory server.
struct Session {
    client: Connection,
    server: std::thread::JoinHandle<()>,
    next_id: i32,
    /// Messages that arrived while waiting for another one.
    backlog: std::collections::VecDeque<Message>,
}

impl Session {
    fn start(schemas: &std::path::Path) -> Session {
        let (server, client) = Connection::memory();
        let server = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || pcl_lsp::serve(&server).expect("the session ends cleanly"))
            .expect("a server thread");
        let mut session = Session {
            client,
            server,
            next_id: 0,
            backlog: std::collections::VecDeque::new(),
        };
        session.request(
            "initialize",
            json!({ "capabilities": {},
            "initializationOptions": { "schemaPath": [schemas] } }),
        );
        session.notify("initialized", json!({}));
        session
    }

    fn notify(&self, method: &str, params: Value) {
        let message = Notification {
            method: method.to_owned(),
            params,
        };
        self.client
            .sender
            .send(message.into())
            .expect("the server reads");
    }

    /// Replaces `len` characters at (line, column) by `by` in the next version of `uri`.
    fn replace(
        &self,
        uri: &str,
        version: &mut i32,
        (line, column): (usize, usize),
        len: usize,
        by: &str,
    ) -> i32 {
        *version += 1;
        self.notify(
            "textDocument/didChange",
            json!({
            "textDocument": { "uri": uri, "version": *version },
            "contentChanges": [{ "range": {
                "start": { "line": line, "character": column },
                "end": { "line": line, "character": column + len } }, "text": by }] }),
        );
        *version
    }

    /// Sends a request and waits for its result, skipping other messages.
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let request = Request {
            id: id.clone(),
            method: method.to_owned(),
            params,
        };
        self.client
            .sender
            .send(request.into())
            .expect("the server reads");
        loop {
            match self.client.receiver.recv().expect("the server answers") {
                Message::Response(response) if response.id == id => {
                    return response.result.unwrap_or(Value::Null);
                }
                other => self.backlog.push_back(other),
            }
        }
    }

    /// Waits for the diagnostics of `uri` at `version`, which must have `expected` errors.
    fn diagnostics(&mut self, uri: &str, version: i32, expected: usize) {
        loop {
            let message = match self.backlog.pop_front() {
                Some(message) => message,
                None => self.client.receiver.recv().expect("the server publishes"),
            };
            if let Message::Notification(n) = message
                && n.method == "textDocument/publishDiagnostics"
                && n.params["uri"] == uri
                && n.params["version"] == version
            {
                let errors = (n.params["diagnostics"].as_array().into_iter().flatten())
                    .filter(|d| d["severity"] == 1)
                    .count();
                assert_eq!(errors, expected, "{}", n.params);
                return;
            }
        }
    }

    fn finish(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let _ = self.server.join();
    }
}

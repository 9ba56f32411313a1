//! Reading and writing protocol messages on stdin/stdout. Unlike `lsp-server`'s own
//! stdio threads, a message that is not valid JSON-RPC is answered with a `ParseError`
//! and the server reads on, instead of ending the session.

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender};
use lsp_server::{Connection, Message};

/// The connection and the two threads that serve it.
pub(crate) fn stdio() -> (Connection, JoinHandle<()>, JoinHandle<()>) {
    let stdout = Arc::new(Mutex::new(std::io::stdout()));
    let (to_server, from_client): (Sender<Message>, Receiver<Message>) =
        crossbeam_channel::unbounded();
    let (to_client, from_server): (Sender<Message>, Receiver<Message>) =
        crossbeam_channel::unbounded();
    let reader_out = Arc::clone(&stdout);
    let reader = std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        while let Some(body) = read_body(&mut input) {
            match serde_json::from_slice::<Message>(&body) {
                Ok(message) => {
                    let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                    if to_server.send(message).is_err() || exit {
                        break;
                    }
                }
                Err(error) => {
                    let reply = serde_json::json!({
                        "jsonrpc": "2.0",
                        "id": null,
                        "error": { "code": -32700, "message": format!("not a JSON-RPC message: {error}") },
                    });
                    write_body(&reader_out, reply.to_string().as_bytes());
                }
            }
        }
    });
    let writer = std::thread::spawn(move || {
        for message in from_server {
            if let Ok(text) = serde_json::to_vec(&message) {
                write_body(&stdout, &text);
            }
        }
    });
    (
        Connection {
            sender: to_client,
            receiver: from_client,
        },
        reader,
        writer,
    )
}

/// The body of the next message; `None` at the end of input or on a broken header.
fn read_body(input: &mut impl BufRead) -> Option<Vec<u8>> {
    let mut length: Option<usize> = None;
    loop {
        let mut line = String::new();
        if input.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            if length.is_some() {
                break;
            }
            continue;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok();
        }
    }
    let mut body = vec![0; length?];
    input.read_exact(&mut body).ok()?;
    Some(body)
}

fn write_body(stdout: &Mutex<std::io::Stdout>, body: &[u8]) {
    let mut out = stdout.lock().unwrap_or_else(PoisonError::into_inner);
    let _ = write!(out, "Content-Length: {}\r\n\r\n", body.len());
    let _ = out.write_all(body);
    let _ = out.flush();
}

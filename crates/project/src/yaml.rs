//! YAML (and JSON, which YAML reads) as a tree of nodes with byte ranges, built from
//! yaml-rust2's marked events. Anchors and aliases are resolved by copying, up to a
//! budget (an alias bomb is an error, as in Pulumi's YAML library); a leading byte-order
//! mark is skipped, as Pulumi does; a syntax error is a value with its position, never a
//! panic.

use std::collections::HashMap;

use pcl_diagnostics::{TextRange, TextSize};
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// A node of a YAML document.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    /// Where the node is: a scalar's text, a collection's first token.
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    /// A scalar, with whether it was written plain (unquoted, untagged: YAML's core
    /// schema resolves its type) and its text after unescaping.
    Scalar {
        text: String,
        plain: bool,
    },
    Seq(Vec<Node>),
    /// Entries in source order.
    Map(Vec<(Node, Node)>),
}

impl Node {
    /// The scalar's text, if the node is a scalar.
    pub fn scalar(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Scalar { text, .. } => Some(text),
            _ => None,
        }
    }

    /// The entries, if the node is a map.
    pub fn entries(&self) -> Option<&[(Node, Node)]> {
        match &self.kind {
            NodeKind::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// The value of the first entry whose key is the scalar `key`.
    pub fn get(&self, key: &str) -> Option<&Node> {
        (self.entries()?.iter())
            .find(|(k, _)| k.scalar() == Some(key))
            .map(|(_, v)| v)
    }

    /// `null`, `~` or nothing, written plain.
    pub fn is_null(&self) -> bool {
        matches!(&self.kind, NodeKind::Scalar { text, plain: true }
            if matches!(text.as_str(), "" | "~" | "null" | "Null" | "NULL"))
    }

    /// What the node is, for messages: `a string`, `a list`, `a map`.
    pub fn describe(&self) -> &'static str {
        match &self.kind {
            NodeKind::Scalar { .. } if self.is_null() => "null",
            NodeKind::Scalar { .. } => "a scalar",
            NodeKind::Seq(_) => "a list",
            NodeKind::Map(_) => "a map",
        }
    }
}

/// A YAML syntax error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlError {
    pub message: String,
    pub range: TextRange,
}

/// How many nodes aliases may copy in one file: far more than any configuration writes,
/// far less than a few hundred bytes of nested aliases expand to.
const ALIAS_BUDGET: usize = 100_000;

/// The first document of `text`; `Ok(None)` for an empty file.
pub fn parse(text: &str) -> Result<Option<Node>, YamlError> {
    let offsets = CharOffsets::new(text);
    // Markers count characters from after a byte-order mark.
    let (body, skipped) = match text.strip_prefix('\u{feff}') {
        Some(rest) => (rest, 1),
        None => (text, 0),
    };
    let tabs_as_spaces = tabs_after_colons(body);
    let body = tabs_as_spaces.as_deref().unwrap_or(body);
    let mut builder = Builder {
        text,
        offsets: &offsets,
        skipped,
        stack: Vec::new(),
        anchors: Vec::new(),
        root: None,
        aliased: 0,
        too_many_aliases: None,
        duplicate: None,
        json: body.trim_start().starts_with('{'),
    };
    let mut parser = Parser::new_from_str(body);
    let result = parser.load(&mut builder, false);
    if let Some(range) = builder.too_many_aliases {
        return Err(YamlError {
            message: format!(
                "its aliases expand to more than {ALIAS_BUDGET} values (Pulumi refuses such a file: \"excessive aliasing\")"
            ),
            range,
        });
    }
    if let Some(duplicate) = builder.duplicate {
        return Err(duplicate);
    }
    if let Err(error) = result {
        let start = offsets.byte(error.marker().index() + skipped);
        let end = next_char_end(text, start);
        return Err(YamlError {
            message: error.info().to_owned(),
            range: TextRange::new(size(start), size(end)),
        });
    }
    Ok(builder.root)
}

/// `body` with each tab right after a key's `:` made a space, when it has one: Pulumi's
/// YAML library takes a tab there, yaml-rust2 does not. The length in bytes and characters
/// is kept, so positions hold. A line with a quote before its `:` is left alone.
fn tabs_after_colons(body: &str) -> Option<String> {
    if !body.contains(":\t") {
        return None;
    }
    let mut out = String::with_capacity(body.len());
    for line in body.split_inclusive('\n') {
        match line.find(":\t") {
            Some(at) if !line[..at].contains(['"', '\'']) => {
                let tabs = line[at + 1..].len() - line[at + 1..].trim_start_matches('\t').len();
                out.push_str(&line[..=at]);
                out.push_str(&" ".repeat(tabs));
                out.push_str(&line[at + 1 + tabs..]);
            }
            _ => out.push_str(line),
        }
    }
    Some(out)
}

/// The second of two equal keys of a map (not YAML's merge key `<<`), as an error naming
/// the first's line.
fn duplicate_key(text: &str, entries: &[(Node, Node)]) -> Option<YamlError> {
    let mut seen: HashMap<&str, TextRange> = HashMap::new();
    for (key, _) in entries {
        let Some(name) = key.scalar().filter(|name| *name != "<<") else {
            continue;
        };
        if let Some(first) = seen.insert(name, key.range) {
            let line = 1 + text[..u32::from(first.start()) as usize]
                .matches('\n')
                .count();
            return Some(YamlError {
                message: format!(
                    "the key `{name}` is given twice in this map (first on line {line})"
                ),
                range: key.range,
            });
        }
    }
    None
}

/// How many nodes `node` holds, itself included.
fn node_count(node: &Node) -> usize {
    1 + match &node.kind {
        NodeKind::Scalar { .. } => 0,
        NodeKind::Seq(items) => items.iter().map(node_count).sum(),
        NodeKind::Map(entries) => (entries.iter())
            .map(|(k, v)| node_count(k) + node_count(v))
            .sum(),
    }
}

fn size(offset: usize) -> TextSize {
    TextSize::from(u32::try_from(offset).unwrap_or(u32::MAX))
}

fn next_char_end(text: &str, start: usize) -> usize {
    text.get(start..)
        .and_then(|rest| rest.chars().next())
        .map_or(start, |c| start + c.len_utf8())
}

/// Character indexes (yaml-rust2's markers) to byte offsets.
struct CharOffsets {
    bytes: Vec<usize>,
}

impl CharOffsets {
    fn new(text: &str) -> CharOffsets {
        let mut bytes: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        bytes.push(text.len());
        CharOffsets { bytes }
    }

    fn byte(&self, index: usize) -> usize {
        self.bytes
            .get(index)
            .copied()
            .unwrap_or_else(|| self.bytes.last().copied().unwrap_or(0))
    }
}

enum Open {
    Seq(Vec<Node>, usize, usize),
    Map(Vec<(Node, Node)>, Option<Node>, usize, usize),
}

struct Builder<'a> {
    text: &'a str,
    offsets: &'a CharOffsets,
    /// Characters before the parsed text (a byte-order mark).
    skipped: usize,
    stack: Vec<Open>,
    /// Anchored nodes, with their node counts.
    anchors: Vec<(usize, Node, usize)>,
    root: Option<Node>,
    /// Nodes copied by aliases so far.
    aliased: usize,
    /// Where the alias that went over [`ALIAS_BUDGET`] is.
    too_many_aliases: Option<TextRange>,
    /// The first key given twice in one map, which Pulumi's YAML library refuses.
    duplicate: Option<YamlError>,
    /// Whether the text is JSON (it starts with `{`).
    json: bool,
}

impl Builder<'_> {
    fn push(&mut self, node: Node, anchor: usize) {
        if anchor > 0 {
            self.anchors.push((anchor, node.clone(), node_count(&node)));
        }
        match self.stack.last_mut() {
            Some(Open::Seq(items, _, _)) => items.push(node),
            Some(Open::Map(entries, key, _, _)) => match key.take() {
                Some(k) => entries.push((k, node)),
                None => *key = Some(node),
            },
            None => {
                if self.root.is_none() {
                    self.root = Some(node);
                }
            }
        }
    }

    /// The byte range of a scalar starting at `start`: its text when it appears there
    /// as written, a quoted string to its closing quote, else to the end of the line.
    fn scalar_range(&self, start: usize, value: &str, style: TScalarStyle) -> TextRange {
        let rest = self.text.get(start..).unwrap_or("");
        let len = match style {
            TScalarStyle::Plain if rest.starts_with(value) => value.len(),
            TScalarStyle::SingleQuoted | TScalarStyle::DoubleQuoted => {
                quoted_len(rest).unwrap_or_else(|| line_len(rest))
            }
            _ => line_len(rest),
        };
        TextRange::new(size(start), size(start + len))
    }
}

fn line_len(rest: &str) -> usize {
    rest.find('\n').unwrap_or(rest.len()).max(1).min(rest.len())
}

fn quoted_len(rest: &str) -> Option<usize> {
    let mut chars = rest.char_indices();
    let (_, quote) = chars.next()?;
    while let Some((i, c)) = chars.next() {
        if quote == '"' && c == '\\' {
            chars.next();
        } else if c == quote {
            if quote == '\'' && rest[i + 1..].starts_with('\'') {
                chars.next();
                continue;
            }
            return Some(i + 1);
        }
    }
    None
}

impl MarkedEventReceiver for Builder<'_> {
    fn on_event(&mut self, event: Event, mark: Marker) {
        if self.too_many_aliases.is_some() {
            return;
        }
        let start = self.offsets.byte(mark.index() + self.skipped);
        match event {
            Event::Scalar(text, style, anchor, tag) => {
                let range = self.scalar_range(start, &text, style);
                let plain = style == TScalarStyle::Plain && tag.is_none();
                let node = Node {
                    kind: NodeKind::Scalar { text, plain },
                    range,
                };
                self.push(node, anchor);
            }
            Event::SequenceStart(anchor, _) => {
                self.stack.push(Open::Seq(Vec::new(), start, anchor))
            }
            Event::MappingStart(anchor, _) => {
                self.stack.push(Open::Map(Vec::new(), None, start, anchor));
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(open) = self.stack.pop() else {
                    return;
                };
                let (kind, start, anchor) = match open {
                    Open::Seq(items, start, anchor) => (NodeKind::Seq(items), start, anchor),
                    Open::Map(entries, _, start, anchor) => {
                        // JSON (Go's `encoding/json` keeps the last of a key) is not refused.
                        if self.duplicate.is_none() && !self.json {
                            self.duplicate = duplicate_key(self.text, &entries);
                        }
                        (NodeKind::Map(entries), start, anchor)
                    }
                };
                let end = next_char_end(self.text, start);
                let mut range = TextRange::new(size(start), size(end));
                // A block map's start is marked at its first key's colon: it is shown at
                // that key instead.
                if let NodeKind::Map(entries) = &kind
                    && let Some((key, _)) = entries.first()
                    && key.range.start() < range.start()
                {
                    range = key.range;
                }
                let node = Node { kind, range };
                self.push(node, anchor);
            }
            Event::Alias(id) => {
                let anchored = (self.anchors.iter().rev()).find(|(anchor, _, _)| *anchor == id);
                if let Some((_, _, count)) = anchored {
                    self.aliased += count;
                    if self.aliased > ALIAS_BUDGET {
                        let end = next_char_end(self.text, start);
                        self.too_many_aliases = Some(TextRange::new(size(start), size(end)));
                        return;
                    }
                }
                let found = anchored.map(|(_, node, _)| node.clone());
                let node = found.unwrap_or(Node {
                    kind: NodeKind::Scalar {
                        text: String::new(),
                        plain: true,
                    },
                    range: TextRange::new(size(start), size(next_char_end(self.text, start))),
                });
                self.push(node, 0);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_keep_their_ranges_and_styles() {
        let text = "name: demo\nconfig:\n  demo:port: '80'\n  é: \"x\\\"y\"\nlist: [1, two]\n";
        let root = parse(text).expect("valid").expect("a document");
        let name = root.get("name").expect("name");
        assert_eq!(&text[name.range], "demo");
        let config = root.get("config").expect("config");
        let port = config.get("demo:port").expect("port");
        assert_eq!(&text[port.range], "'80'");
        assert_eq!(
            port.kind,
            NodeKind::Scalar {
                text: "80".into(),
                plain: false
            }
        );
        let e = config.get("é").expect("é");
        assert_eq!(&text[e.range], "\"x\\\"y\"");
        let list = root.get("list").expect("list");
        assert_eq!(list.describe(), "a list");
    }

    #[test]
    fn syntax_errors_have_positions() {
        let text = "name: demo\nconfig: [1, 2\n";
        let error = parse(text).expect_err("invalid");
        assert!(u32::from(error.range.start()) as usize <= text.len());
        assert_eq!(parse("").expect("empty is fine"), None);
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let text = "\u{feff}name: demo\nconfig: {a: b}\n";
        let root = parse(text).expect("valid").expect("a document");
        let name = root.get("name").expect("name, without the mark");
        assert_eq!(&text[name.range], "demo");
        let error = parse("\u{feff}a: [1\n").expect_err("invalid");
        assert!(u32::from(error.range.start()) as usize >= 3);
    }

    /// Nine levels of nine aliases each would be 9^9 values.
    #[test]
    fn an_alias_bomb_is_an_error() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x]\n");
        for level in 1..9 {
            let previous = format!("*a{}", level - 1);
            let items = [previous.as_str(); 9].join(", ");
            text.push_str(&format!("a{level}: &a{level} [{items}]\n"));
        }
        let error = parse(&text).expect_err("too many aliases");
        assert!(error.message.contains("excessive aliasing"), "{error:?}");
        assert_eq!(&text[error.range], "*");
    }

    #[test]
    fn a_tab_after_a_colon_is_whitespace() {
        let text = "config:\n  demo:port:\t8080\n";
        let root = parse(text).expect("valid").expect("a document");
        let port = root
            .get("config")
            .and_then(|c| c.get("demo:port"))
            .expect("port");
        assert_eq!(&text[port.range], "8080");
        assert!(
            parse("config:\n\tdemo:port: 1\n").is_err(),
            "a tab indents nothing"
        );
    }

    #[test]
    fn a_key_given_twice_is_an_error() {
        let text = "name: a\nruntime: pcl\nruntime: nodejs\n";
        let error = parse(text).expect_err("duplicate");
        assert_eq!(&text[error.range], "runtime");
        assert!(error.message.contains("first on line 2"), "{error:?}");
        assert!(parse("a: &x {k: 1}\nb:\n  <<: *x\n  <<: *x\n").is_ok());
    }

    #[test]
    fn aliases_copy_their_anchors() {
        let root = parse("a: &x [1]\nb: *x\n").expect("valid").expect("doc");
        assert_eq!(root.get("b").map(Node::describe), Some("a list"));
    }
}

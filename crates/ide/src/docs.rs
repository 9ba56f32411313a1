//! Schema descriptions as an editor shows them: Pulumi's descriptions are written for its
//! documentation site, with `{{% examples %}}` / `{{% example %}}` shortcodes around
//! example programs in every language. A hover keeps the prose (its first paragraphs)
//! and one example in a language a PCL author reads (PCL, else YAML), and drops the rest.

/// At most this many paragraphs of prose are kept.
const MAX_PARAGRAPHS: usize = 3;

/// Languages of examples worth showing beside PCL, in order of preference.
const EXAMPLE_LANGUAGES: [&str; 2] = ["pcl", "yaml"];

/// `text` (a schema description) as hover Markdown: shortcodes removed, code in other
/// languages removed, the prose before the first heading or example cut to its first
/// paragraphs, then the first PCL (else YAML) example, if any.
pub(crate) fn render_description(text: &str) -> String {
    let mut prose: Vec<String> = Vec::new();
    let mut paragraph: Vec<&str> = Vec::new();
    // Examples found anywhere, by language: (language, code lines).
    let mut examples: Vec<(String, Vec<&str>)> = Vec::new();
    // Inside a fenced block: its language and lines.
    let mut fence: Option<(String, Vec<&str>)> = None;
    // Prose ends at the first shortcode or heading; code blocks are still looked at.
    let mut prose_done = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some((language, lines)) = &mut fence {
            if trimmed.starts_with("```") {
                let language = std::mem::take(language);
                let lines = std::mem::take(lines);
                fence = None;
                if EXAMPLE_LANGUAGES.contains(&language.as_str()) {
                    examples.push((language, lines));
                }
            } else {
                lines.push(line);
            }
            continue;
        }
        if let Some(language) = trimmed.strip_prefix("```") {
            flush(&mut paragraph, &mut prose);
            fence = Some((language.trim().to_ascii_lowercase(), Vec::new()));
            continue;
        }
        if trimmed.starts_with("{{%") || trimmed.starts_with('#') {
            flush(&mut paragraph, &mut prose);
            prose_done = true;
            continue;
        }
        if prose_done {
            continue;
        }
        if trimmed.is_empty() {
            flush(&mut paragraph, &mut prose);
        } else {
            paragraph.push(line);
        }
    }
    flush(&mut paragraph, &mut prose);
    let cut = prose.len() > MAX_PARAGRAPHS;
    prose.truncate(MAX_PARAGRAPHS);
    let mut out = prose.join("\n\n");
    if cut {
        out.push_str("\n\n…");
    }
    let example = (EXAMPLE_LANGUAGES.iter())
        .find_map(|wanted| examples.iter().find(|(language, _)| language == wanted));
    if let Some((language, lines)) = example {
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str(&format!(
            "Example:\n\n```{language}\n{}\n```",
            lines.join("\n")
        ));
    }
    out
}

/// End the paragraph being collected, if any.
fn flush(paragraph: &mut Vec<&str>, prose: &mut Vec<String>) {
    if !paragraph.is_empty() {
        prose.push(paragraph.join("\n"));
        paragraph.clear();
    }
}

//! Editor questions answered by `Analysis`: definition across files and into component
//! programs, references, hover.

use pcl_syntax::TextSize;

use super::{logged_host, set_program};

fn offset_of(text: &str, needle: &str) -> TextSize {
    TextSize::from(text.find(needle).expect("the needle is in the text") as u32)
}

#[test]
fn definition_references_and_component_sources() {
    let (mut host, _log) = logged_host();
    let main = "component \"net\" \"./net\" {\n  cidr = base\n}\n\noutput \"id\" {\n  value = net.subnet\n}\n";
    let other = "base = \"10.0.0.0/16\"\n";
    let net = "config \"cidr\" \"string\" {}\n\noutput \"subnet\" {\n  value = \"${cidr}-a\"\n}\n";
    set_program(&mut host, "app/net", &[("main.pp", net)]);
    set_program(&mut host, "app", &[("main.pp", main), ("other.pp", other)]);
    let analysis = host.analysis();
    // `base` in main.pp is declared in other.pp.
    let targets = analysis
        .goto_definition("app/main.pp", offset_of(main, "base") + TextSize::from(1))
        .expect("no cancellation");
    assert_eq!(targets.len(), 1);
    assert_eq!(targets[0].path, "app/other.pp");
    assert_eq!(targets[0].focus_range.start(), TextSize::from(0));
    // The component's source label opens its program.
    let targets = analysis
        .goto_definition("app/main.pp", offset_of(main, "./net") + TextSize::from(2))
        .expect("no cancellation");
    assert_eq!(
        targets.iter().map(|t| t.path.as_str()).collect::<Vec<_>>(),
        ["app/net/main.pp"]
    );
    // `base`: its declaration and one use, in two files.
    let references = analysis
        .references("app/other.pp", TextSize::from(1))
        .expect("no cancellation");
    let places: Vec<(&str, bool)> = references
        .iter()
        .map(|r| (r.path.as_str(), r.is_declaration))
        .collect();
    assert_eq!(places, [("app/other.pp", true), ("app/main.pp", false)]);
    // Hover on the component reference shows its outputs.
    let hover = analysis
        .hover(
            "app/main.pp",
            offset_of(main, "net.subnet") + TextSize::from(1),
        )
        .expect("no cancellation")
        .expect("a hover");
    assert!(
        hover
            .markdown
            .contains("component net: object({subnet = output(string)})"),
        "{}",
        hover.markdown
    );
}

/// Found by the `lsp` fuzz target: completion right after a multi-byte character.
#[test]
fn completion_after_a_multibyte_character() {
    let (mut host, _log) = logged_host();
    let text = "\u{feff}x = 1\ny = \u{e9}.\n";
    set_program(&mut host, "mb", &[("main.pp", text)]);
    let analysis = host.analysis();
    for offset in 0..=text.len() {
        if text.is_char_boundary(offset) {
            let _ = analysis.completions("mb/main.pp", TextSize::from(offset as u32));
        }
    }
}

//! Editor questions answered by `Analysis`: definition across files and into component
//! programs, references, hover.

use pcl_syntax::TextSize;

use super::{logged_host, offset_of, set_program};

/// A host with the example programs' `web` schema loaded.
fn host_with_the_web_schema() -> crate::AnalysisHost {
    let (mut host, _log) = logged_host();
    let schema = std::fs::read_to_string(
        pcl_test_utils::test_data_dir().join("programs/schemas/web-1.0.0.json"),
    )
    .expect("the web schema exists");
    host.add_schema("web-1.0.0.json", &schema)
        .expect("the web schema loads");
    host
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

/// Field names are offered wherever an object literal's expected type is known: resource
/// inputs and their nested objects, component inputs, options, invoke arguments and a
/// config's default; inside a value, names in scope instead.
#[test]
fn completion_of_object_fields_where_the_type_is_known() {
    let mut host = host_with_the_web_schema();
    let main = r#"resource "site" "web:index:Bucket" {
  website = { IDX }
  tags = { Name = VAL }
  options {
    customTimeouts = { OPT }
    OPN
  }
}

region = invoke("web:index:getRegion", { INV })

component "net" "./net" {
  CMP
}

config "shape" "object({size = int, name = string})" {
  default = { DEF }
}

config "rules" "list(object({port = int, name = string, paths = list(object({path = string}))}))" {
  default = [{ port = 80, paths = [{ PTH }] }, { LST }]
}
"#;
    let net = "config \"cidr\" \"string\" {}\nconfig \"zones\" \"int\" {\n  default = 2\n}\n";
    set_program(&mut host, "app/net", &[("main.pp", net)]);
    set_program(&mut host, "app", &[("main.pp", main)]);
    let analysis = host.analysis();
    let labels = |marker: &str| -> Vec<String> {
        let found = analysis
            .completions("app/main.pp", offset_of(main, marker))
            .expect("no cancellation");
        found.into_iter().map(|item| item.label).collect()
    };
    assert_eq!(labels("IDX"), ["errorDocument", "indexDocument"]);
    assert_eq!(labels("OPT"), ["create", "delete", "read", "update"]);
    assert_eq!(labels("INV"), ["bucket"]);
    let options = labels("OPN");
    assert!(
        options.contains(&"dependsOn".to_owned()) && !options.contains(&"name".to_owned()),
        "{options:?}"
    );
    assert_eq!(labels("DEF"), ["name", "size"]);
    // In a list of objects: the elements' fields.
    assert_eq!(labels("LST"), ["name", "paths", "port"]);
    assert_eq!(labels("PTH"), ["path"]);
    let component = labels("CMP");
    assert!(
        component.contains(&"cidr".to_owned()) && component.contains(&"zones".to_owned()),
        "{component:?}"
    );
    // In a value: names in scope and builtins, not fields.
    let value = labels("VAL");
    assert!(
        value.contains(&"region".to_owned()) && value.contains(&"join".to_owned()),
        "{value:?}"
    );
}

/// Hover shows the schema's descriptions of resources, inputs and functions, and the
/// signatures of builtins.
#[test]
fn hover_shows_schema_descriptions_and_builtin_signatures() {
    let mut host = host_with_the_web_schema();
    let main = r#"resource "site" "web:index:Bucket" {
  name = "site"
}

region = invoke("web:index:getRegion", { bucket = site.name })
size = length("abc")
"#;
    set_program(&mut host, "app", &[("main.pp", main)]);
    let analysis = host.analysis();
    let hover = |needle: &str| -> String {
        analysis
            .hover("app/main.pp", offset_of(main, needle) + TextSize::from(1))
            .expect("no cancellation")
            .map(|h| h.markdown)
            .unwrap_or_default()
    };
    let resource = hover("site\" \"web");
    assert!(
        resource.contains("A storage bucket that may serve a website."),
        "{resource}"
    );
    let input = hover("name = \"site\"");
    assert!(
        input.contains("input name: string") && input.contains("The bucket's name."),
        "{input}"
    );
    let function = hover("web:index:getRegion");
    assert!(
        function.contains("The region a bucket lives in."),
        "{function}"
    );
    // Its arguments and result too.
    assert!(
        function.contains("`bucket`: `string` (required)") && function.contains("**result**"),
        "{function}"
    );
    let builtin = hover("length(");
    assert!(builtin.contains("length(value:"), "{builtin}");
    // The range is what is under the cursor: the type label, the keyword, the name.
    let range = |needle: &str| -> &str {
        let found = (analysis.hover("app/main.pp", offset_of(main, needle) + TextSize::from(2)))
            .expect("no cancellation")
            .expect("a hover");
        &main[std::ops::Range::<usize>::from(found.range)]
    };
    assert_eq!(range("web:index:Bucket"), "\"web:index:Bucket\"");
    assert_eq!(range("resource"), "resource");
    assert_eq!(range("site\" \"web"), "\"site\"");
}

/// Hover on a key of an object literal shows that property (its schema type and
/// description), on an output's name its value's type, and on a component's input the
/// component's `config` (its type and description).
#[test]
fn hover_on_object_keys_outputs_and_component_inputs() {
    let mut host = host_with_the_web_schema();
    let main = r#"resource "site" "web:index:Bucket" {
  name = "site"
  website = {
    indexDocument = "index.html"
  }
}

output "arn" {
  value = site.arn
}

component "net" "./net" {
  cidr = "10.0.0.0/16"
}
"#;
    let net = "config \"cidr\" \"string\" {\n  description = \"The network's address range.\"\n}\n";
    set_program(&mut host, "app/net", &[("main.pp", net)]);
    set_program(&mut host, "app", &[("main.pp", main)]);
    let analysis = host.analysis();
    let hover = |needle: &str| -> String {
        analysis
            .hover("app/main.pp", offset_of(main, needle) + TextSize::from(1))
            .expect("no cancellation")
            .map(|h| h.markdown)
            .unwrap_or_default()
    };
    let key = hover("indexDocument");
    assert!(
        key.contains("property indexDocument: string")
            && key.contains("required property of `web:index:Website`")
            && key.contains("The page served for a directory."),
        "{key}"
    );
    let output = hover("arn\" {");
    assert!(output.contains("output arn: output(string)"), "{output}");
    let input = hover("cidr =");
    assert!(
        input.contains("input cidr: string")
            && input.contains("component ./net")
            && input.contains("The network's address range."),
        "{input}"
    );
}

/// A description written for Pulumi's documentation site (shaped like random's
/// `RandomPet`): the prose and the YAML example stay, the shortcodes and the examples in
/// other languages go.
#[test]
fn schema_descriptions_render_without_shortcodes_or_other_languages() {
    let description = "The resource `random.RandomPet` generates random pet names.\n\nThis resource can be used with `create_before_destroy`.\n\n{{% examples %}}\n## Example Usage\n{{% example %}}\n\n```typescript\nimport * as random from \"@pulumi/random\";\nconst pet = new random.RandomPet(\"pet\", {});\n```\n```go\npackage main\n```\n```yaml\nresources:\n  serverRandomPet:\n    type: random:RandomPet\n```\n{{% /example %}}\n{{% /examples %}}";
    let rendered = crate::docs::render_description(description);
    assert_eq!(
        rendered,
        "The resource `random.RandomPet` generates random pet names.\n\nThis resource can be used with `create_before_destroy`.\n\nExample:\n\n```yaml\nresources:\n  serverRandomPet:\n    type: random:RandomPet\n```"
    );
    // A PCL example is preferred; long prose is cut.
    let long = "One.\n\nTwo.\n\nThree.\n\nFour.\n\n```yaml\na: 1\n```\n```pcl\nx = 1\n```";
    assert_eq!(
        crate::docs::render_description(long),
        "One.\n\nTwo.\n\nThree.\n\n…\n\nExample:\n\n```pcl\nx = 1\n```"
    );
}

/// The real `RandomPet` from the shared corpus: its hover is a few hundred bytes of prose
/// and the YAML example, not 5 KB of shortcodes.
#[test]
fn the_random_pet_hover_is_short() {
    let Some(corpus) = pcl_test_utils::corpus_dir() else {
        return;
    };
    let schema = std::fs::read_to_string(corpus.join("schemas/random-4.11.2.json"))
        .expect("the corpus has random 4.11.2");
    let (mut host, _log) = logged_host();
    host.add_schema("random-4.11.2.json", &schema)
        .expect("the random schema loads");
    let main = "resource \"pet\" \"random:index/randomPet:RandomPet\" {\n  length = 2\n}\n";
    set_program(&mut host, "app", &[("main.pp", main)]);
    let hover = host
        .analysis()
        .hover("app/main.pp", offset_of(main, "pet") + TextSize::from(1))
        .expect("no cancellation")
        .expect("a hover")
        .markdown;
    assert!(hover.len() < 1500, "{hover}");
    assert!(
        hover.contains("generates random pet names") && hover.contains("```yaml"),
        "{hover}"
    );
    assert!(
        !hover.contains("{{%") && !hover.contains("typescript"),
        "{hover}"
    );
}

/// Rename is refused, naming the clash, when the new name is taken in the target's
/// namespace (outputs have their own), and for non-names, `null` and `for`.
#[test]
fn rename_refuses_taken_names_non_names_and_null() {
    let (mut host, _log) = logged_host();
    let main = "a = 1\nb = a\n\noutput \"o\" {\n  value = b\n}\n\noutput \"p\" {\n  value = a\n}\n";
    set_program(&mut host, "app", &[("main.pp", main)]);
    let analysis = host.analysis();
    let check = |needle: &str, name: &str| {
        analysis
            .check_rename("app/main.pp", offset_of(main, needle), name)
            .expect("no cancellation")
    };
    let refused = check("a = 1", "b").expect_err("`b` is taken");
    assert!(
        refused.contains("`b`") && refused.contains("app/main.pp:2"),
        "{refused}"
    );
    // Outputs are a namespace of their own, both ways.
    assert_eq!(check("a = 1", "o"), Ok(()));
    assert!(check("o\" {", "p").is_err());
    assert_eq!(check("o\" {", "a"), Ok(()));
    assert!(check("a = 1", "null").is_err());
    // `[for, 2]` would read as a `for` expression.
    assert!(check("a = 1", "for").is_err());
    assert!(check("a = 1", "1x").is_err());
    assert!(check("a = 1", "x y").is_err());
    assert_eq!(check("a = 1", "c"), Ok(()));
    // A name may be renamed to itself.
    assert_eq!(check("a = 1", "a"), Ok(()));
}

/// A `for` variable's references are its declaration and the uses its scope reads (not
/// an object's bare key, nor a name in its own collection, nor an inner `for`'s variable
/// of the same name); renaming it is refused where a name would change meaning.
#[test]
fn for_variables_have_references_and_rename() {
    let (mut host, _log) = logged_host();
    let main = r#"pages = ["a"]
names = [for p in pages : "${p}-x" if p != ""]
nested = { for k, p in pages : p => [for p in [p] : { p = p, k = k }] }
lines = "%{ for line in pages }${line}%{ endfor }"
"#;
    set_program(&mut host, "app", &[("main.pp", main)]);
    let analysis = host.analysis();
    let references = |needle: &str, skip: usize| -> Vec<(usize, bool)> {
        let at = offset_of(main, needle) + TextSize::from(skip as u32);
        (analysis.references("app/main.pp", at))
            .expect("no cancellation")
            .into_iter()
            .map(|r| (usize::from(r.range.start()), r.is_declaration))
            .collect()
    };
    let at = |needle: &str| usize::from(offset_of(main, needle));
    // From the declaration and from a use: the same three.
    let names = vec![
        (at("p in pages :"), true),
        (at("p}-x"), false),
        (at("p != \"\""), false),
    ];
    assert_eq!(references("p in pages :", 0), names);
    assert_eq!(references("p}-x", 0), names);
    // The outer `p` of `nested`: its key and the inner `for`'s collection.
    assert_eq!(
        references("p in pages : p =>", 0),
        [
            (at("p in pages : p =>"), true),
            (at("p => ["), false),
            (at("p] :"), false),
        ]
    );
    // The inner `p`: the value of the field `p`, not its key.
    assert_eq!(
        references("p in [p]", 0),
        [(at("p in [p]"), true), (at("p, k = k"), false)]
    );
    // A template's `for`.
    assert_eq!(
        references("line}", 0),
        [(at("line in"), true), (at("line}"), false)]
    );
    let definition = (analysis.goto_definition("app/main.pp", offset_of(main, "p}-x")))
        .expect("no cancellation");
    assert_eq!(
        (definition.iter())
            .map(|t| usize::from(t.focus_range.start()))
            .collect::<Vec<_>>(),
        [at("p in pages :")]
    );
    let check = |needle: &str, name: &str| {
        analysis
            .check_rename("app/main.pp", offset_of(main, needle), name)
            .expect("no cancellation")
    };
    assert_eq!(check("p}-x", "page"), Ok(()));
    // `pages` is read in the collection only: outside the scope.
    assert_eq!(check("p}-x", "pages"), Ok(()));
    // The `for`'s other variable; a name its scope reads (`k` of the outer `for`).
    assert!(check("p in pages : p =>", "k").is_err());
    let refused = check("p in [p]", "k").expect_err("the outer `k` is read inside");
    assert!(refused.contains("hide"), "{refused}");
    // The outer `p` renamed `q` is fine; a use inside a `for` binding the new name is not.
    assert_eq!(check("p in pages : p =>", "q"), Ok(()));
    let shadowing = "xs = [1]\nys = [for a in xs : [for b in xs : a]]\n";
    let (mut host, _log) = logged_host();
    set_program(&mut host, "app", &[("main.pp", shadowing)]);
    let refused = (host
        .analysis()
        .check_rename("app/main.pp", offset_of(shadowing, "a in"), "b"))
    .expect("no cancellation")
    .expect_err("the inner `b` would take the use");
    assert!(refused.contains("inner"), "{refused}");
}

/// At a line of a resource's body: its inputs not yet set and the `options` block, and
/// nothing else (no builtins, no other declarations); in a config's or output's, its
/// attributes not yet set; at the start of a top-level line, the block keywords only; in a
/// type label and `invoke`'s first argument, the schema's tokens.
#[test]
fn completion_in_a_body_offers_unset_inputs_only() {
    let mut host = host_with_the_web_schema();
    let main = r#"resource "site" "web:index:Bucket" {
  name = "site"
  vers
  website = {
    indexDocument = "index.html"
  }
}

resource "other" "" {
}

region = invoke("", {})

config "size" "int" {
  defa
  secret = true
}

output "url" {
  valu
}

reso
"#;
    set_program(&mut host, "app", &[("main.pp", main)]);
    let analysis = host.analysis();
    let labels = |offset: TextSize| -> Vec<String> {
        let found = analysis
            .completions("app/main.pp", offset)
            .expect("no cancellation");
        found.into_iter().map(|item| item.label).collect()
    };
    let typing = offset_of(main, "vers") + TextSize::from(4);
    assert_eq!(
        labels(typing),
        ["storageClass", "tags", "versioning", "options"],
        "name and website are set"
    );
    let config = offset_of(main, "defa") + TextSize::from(4);
    assert_eq!(
        labels(config),
        ["default", "description", "nullable", "__logicalName"]
    );
    let config_type = offset_of(main, "\"int\" {") + TextSize::from(2);
    assert_eq!(
        labels(config_type),
        [
            "string",
            "int",
            "number",
            "bool",
            "list(string)",
            "map(string)",
            "object({name = string})"
        ]
    );
    let output = offset_of(main, "valu") + TextSize::from(4);
    assert_eq!(labels(output), ["value", "description", "__logicalName"]);
    // A top-level line starts a block or a new name: the block keywords only (no value:
    // neither builtins nor the names declared already).
    let top = labels(offset_of(main, "reso\n") + TextSize::from(4));
    assert!(top.contains(&"resource".to_owned()), "{top:?}");
    assert!(
        !top.contains(&"region".to_owned()) && !top.contains(&"fileAsset".to_owned()),
        "{top:?}"
    );
    let label = offset_of(main, "\"\" {") + TextSize::from(1);
    assert_eq!(labels(label), ["web:index:Bucket", "web:index:Page"]);
    let function = offset_of(main, "\"\", {})") + TextSize::from(1);
    assert_eq!(
        labels(function),
        ["web:index:getDefaults", "web:index:getRegion"]
    );
}

/// Definition of a component's output (`net.subnet`) and input (`cidr = …` in its body)
/// is the `output` or `config` block in the component's directory; of a resource's or
/// function's token, its entry in the schema file.
#[test]
fn definition_of_component_members_and_schema_tokens() {
    let mut host = host_with_the_web_schema();
    let main = r#"component "net" "./net" {
  cidr = "10.0.0.0/16"
}

output "id" {
  value = net.subnet
}

resource "site" "web:index:Bucket" {
  name = "site"
}

region = invoke("web:index:getRegion", { bucket = "b" })
"#;
    let net = "config \"cidr\" \"string\" {}\n\noutput \"subnet\" {\n  value = \"${cidr}-a\"\n}\n";
    set_program(&mut host, "app/net", &[("main.pp", net)]);
    set_program(&mut host, "app", &[("main.pp", main)]);
    let analysis = host.analysis();
    let definition = |needle: &str, skip: u32| {
        let found = analysis
            .goto_definition(
                "app/main.pp",
                offset_of(main, needle) + TextSize::from(skip),
            )
            .expect("no cancellation");
        assert_eq!(found.len(), 1, "{needle}: {found:?}");
        let target = found.into_iter().next().expect("one target");
        let text = analysis.file_text(&target.path).expect("the target's text");
        let at =
            &text[usize::from(target.focus_range.start())..usize::from(target.focus_range.end())];
        (target.path.to_string(), at.to_owned())
    };
    assert_eq!(
        definition("net.subnet", 5),
        ("app/net/main.pp".to_owned(), "\"subnet\"".to_owned())
    );
    assert_eq!(
        definition("cidr =", 1),
        ("app/net/main.pp".to_owned(), "\"cidr\"".to_owned())
    );
    assert_eq!(
        definition("web:index:Bucket", 2),
        (
            "web-1.0.0.json".to_owned(),
            "\"web:index:Bucket\"".to_owned()
        )
    );
    assert_eq!(
        definition("web:index:getRegion", 2),
        (
            "web-1.0.0.json".to_owned(),
            "\"web:index:getRegion\"".to_owned()
        )
    );
}

/// A property written with the wrong case (PCL3003) and a misspelt one (PCL3002) in
/// `base.name` carry a fix that replaces the name after the dot.
#[test]
fn traversal_problems_carry_a_fix_for_the_name_after_the_dot() {
    let mut host = host_with_the_web_schema();
    let main =
        "resource \"b\" \"web:index:Bucket\" {\n  name = \"x\"\n}\n\nx = b.Arn\ny = b.nmae\n";
    let id = set_program(&mut host, "app", &[("main.pp", main)]);
    let found = super::diagnostics(&host, &id);
    let fixes: Vec<(String, &str, String)> = found
        .iter()
        .flat_map(|d| d.fixes.iter().map(move |fix| (d.code.to_string(), fix)))
        .flat_map(|(code, fix)| {
            fix.edits.iter().map(move |edit| {
                let range = edit.span.range;
                let replaced = &main[usize::from(range.start())..usize::from(range.end())];
                (code.clone(), replaced, edit.replacement.clone())
            })
        })
        .collect();
    assert_eq!(
        fixes,
        [
            ("PCL3003".to_owned(), "Arn", "arn".to_owned()),
            ("PCL3002".to_owned(), "nmae", "name".to_owned()),
        ]
    );
}

/// The fix for a missing input of an empty body, applied: the input on a line of its own
/// and no blank line, whether the `}` was on the `{`'s line (after a blank too) or on one
/// of its own.
#[test]
fn the_missing_input_fix_of_an_empty_body() {
    for (written, fixed) in [
        ("{}", "{\n  name = \"\"\n}"),
        ("{\n}", "{\n  name = \"\"\n}"),
        ("{ }", "{\n  name = \"\"\n}"),
    ] {
        let mut host = host_with_the_web_schema();
        let main = format!("resource \"b\" \"web:index:Bucket\" {written}\n");
        let id = set_program(&mut host, "app", &[("main.pp", &main)]);
        let found = super::diagnostics(&host, &id);
        let edit = (found.iter())
            .flat_map(|d| d.fixes.iter())
            .flat_map(|fix| fix.edits.iter())
            .next()
            .expect("a fix");
        let range = std::ops::Range::<usize>::from(edit.span.range);
        let mut applied = main.clone();
        applied.replace_range(range, &edit.replacement);
        let expected = format!("resource \"b\" \"web:index:Bucket\" {fixed}\n");
        assert_eq!(applied, expected, "{written:?}");
    }
}

/// After a `.`, the attributes of what the path before it reads: through indexes, outputs
/// and optional values; right after an `=`, values rather than the body's inputs.
#[test]
fn completion_of_members_and_values() {
    let mut host = host_with_the_web_schema();
    let main = r#"config "cfg" "object({b = optional(object({c = int, d = string}))})" {}

resource "pages" "web:index:Page" {
  bucket = "b"
  key    = "k-${range.value}"
  options {
    range = 2
  }
}

first = pages[0].EIX
nested = cfg.b.NST
site = { tags = { x = 1 } }
deep = site.tags.DPX
config "zones" "map(object({name = string, size = int}))" {}
pageTags = [for p in pages : p.FVX]
literal = [{ a = 1 }, { a = 2, b = "x" }]
fromLiteral = [for l in literal : l.LTX]
zoneNames = { for k, zone in zones : k => zone.MVX }

resource "other" "web:index:Bucket" {
  name = EQX
}
"#;
    let completions = |text: &str, marker: &str| -> Vec<String> {
        let mut host = host_with_the_web_schema();
        set_program(&mut host, "m", &[("main.pp", text)]);
        let found = (host.analysis())
            .completions("m/main.pp", offset_of(text, marker))
            .expect("no cancellation");
        found.into_iter().map(|item| item.label).collect()
    };
    set_program(&mut host, "m", &[("main.pp", main)]);
    assert_eq!(
        completions(main, "EIX"),
        ["bucket", "etag", "id", "key", "urn"]
    );
    assert_eq!(completions(main, "NST"), ["c", "d"]);
    assert_eq!(completions(main, "DPX"), ["x"]);
    // A `for` variable: an element of its collection.
    assert_eq!(
        completions(main, "FVX"),
        ["bucket", "etag", "id", "key", "urn"]
    );
    assert_eq!(completions(main, "MVX"), ["name", "size"]);
    // Over a literal list: its elements' types, unified.
    assert_eq!(completions(main, "LTX"), ["a", "b"]);
    // A value with nothing typed yet after the `=`: names in scope, not inputs (nor the
    // fields of an object around it).
    let main = &main.replace("name = EQX", "name = EQX\n  tags = { team = NQX }");
    for (written, at) in [("EQX", "EQX"), (" EQX", " EQX"), ("NQX", "NQX")] {
        let empty_value = main.replace(written, "");
        let at = offset_of(main, at);
        let mut host = host_with_the_web_schema();
        set_program(&mut host, "m", &[("main.pp", &empty_value)]);
        let labels: Vec<String> = (host.analysis().completions("m/main.pp", at))
            .expect("no cancellation")
            .into_iter()
            .map(|item| item.label)
            .collect();
        assert!(
            labels.contains(&"pages".to_owned()) && !labels.contains(&"tags".to_owned()),
            "{labels:?}"
        );
    }
}

/// A value of an enum-typed input completes to the enum's values: inside the quotes
/// (replacing what is typed there), or quoted right after the `=`; other strings offer
/// nothing.
#[test]
fn completion_of_enum_values() {
    let complete = |text: &str, marker: &str| -> Vec<(String, Option<String>)> {
        let mut host = host_with_the_web_schema();
        set_program(&mut host, "m", &[("main.pp", text)]);
        let found = (host.analysis())
            .completions("m/main.pp", offset_of(text, marker))
            .expect("no cancellation");
        (found.into_iter())
            .map(|item| {
                let replaced = (item.replace)
                    .map(|range| text[std::ops::Range::<usize>::from(range)].to_owned());
                (item.label, replaced)
            })
            .collect()
    };
    let program = |value: &str| {
        format!("resource \"b\" \"web:index:Bucket\" {{\n  storageClass = {value}\n}}\n")
    };
    let typed = program("\"STAX\"");
    assert_eq!(
        complete(&typed.replace("X", ""), "\"\n"),
        [
            ("STANDARD".to_owned(), Some("STA".to_owned())),
            ("ARCHIVE".to_owned(), Some("STA".to_owned()))
        ]
    );
    let empty = program("\"\"");
    assert_eq!(
        complete(&empty, "\"\n"),
        [
            ("STANDARD".to_owned(), Some(String::new())),
            ("ARCHIVE".to_owned(), Some(String::new()))
        ]
    );
    // After the `=`: the values first, then the names in scope (a config may be given).
    let after_equals = format!("config chosen \"string\" {{}}\n{}", program(""));
    let found = complete(&after_equals, "\n}");
    assert_eq!(
        found[..2],
        [
            ("\"STANDARD\"".to_owned(), None),
            ("\"ARCHIVE\"".to_owned(), None)
        ]
    );
    assert!(
        found.iter().any(|(label, _)| label == "chosen"),
        "{found:?}"
    );
    // A string that is no enum's: nothing (names in scope would land inside the quotes).
    let other = "resource \"b\" \"web:index:Bucket\" {\n  name = \"abX\"\n}\n";
    assert_eq!(complete(&other.replace("X", ""), "\"\n"), []);
    // In a list of enums, and an integer enum after the `=`.
    let (mut host, _log) = logged_host();
    let schema =
        std::fs::read_to_string(pcl_test_utils::test_data_dir().join("schemas/enums.json"))
            .expect("the enums schema exists");
    host.add_schema("enums.json", &schema)
        .expect("the enums schema loads");
    let paint =
        "resource \"p\" \"enums:index:Paint\" {\n  colors = [\"red\", LX]\n  level = LVX\n}\n";
    let paint = &paint.replace(" LX", " ").replace(" LVX", " ");
    set_program(&mut host, "p", &[("main.pp", paint)]);
    let labels = |marker: &str| -> Vec<String> {
        (host
            .analysis()
            .completions("p/main.pp", offset_of(paint, marker)))
        .expect("no cancellation")
        .into_iter()
        .map(|item| item.label)
        .collect()
    };
    assert_eq!(labels("]")[..2], ["\"red\"", "\"blue\""]);
    assert_eq!(
        labels("\n}")[..3],
        ["1", "2", "123456789012345678901234567890"]
    );
}

/// Before a package is chosen, a type token completes to the packages on the search path
/// (`web:`); once one is typed, it loads and its tokens are offered.
#[test]
fn type_tokens_offer_the_packages_on_the_search_path() {
    let labels = |text: &str| -> Vec<String> {
        let (mut host, _log) = logged_host();
        set_program(&mut host, "p", &[("main.pp", text)]);
        let at = offset_of(text, "\" {");
        let found = (host.analysis())
            .completions("p/main.pp", at)
            .expect("no cancellation");
        found.into_iter().map(|item| item.label).collect()
    };
    let before = labels("resource \"x\" \"\" {}\n");
    assert!(before.contains(&"web:".to_owned()), "{before:?}");
    let chosen = labels("resource \"x\" \"web:\" {}\n");
    assert_eq!(chosen, ["web:index:Bucket", "web:index:Page"]);
}

/// A component program's config and output are named by the programs that instantiate
/// it: references (and so a rename) reach the input in the `component` block and the
/// step after the component's name, unless a `__logicalName` is what parents use.
#[test]
fn references_of_a_components_config_and_output_reach_its_parent() {
    let (mut host, _log) = logged_host();
    let main = "component \"net\" \"./net\" {\n  cidr = \"10.0.0.0/16\"\n}\n\noutput \"id\" {\n  value = net.subnet\n}\n";
    let net = "config \"cidr\" \"string\" {}\n\noutput \"subnet\" {\n  value = \"${cidr}-a\"\n}\n\nconfig \"zones\" \"int\" {\n  __logicalName = \"zoneCount\"\n  default       = 2\n}\n";
    set_program(&mut host, "app/net", &[("main.pp", net)]);
    set_program(&mut host, "app", &[("main.pp", main)]);
    let analysis = host.analysis();
    let places = |needle: &str| -> Vec<(String, String)> {
        let at = offset_of(net, needle) + TextSize::from(1);
        (analysis.references("app/net/main.pp", at))
            .expect("no cancellation")
            .into_iter()
            .map(|r| {
                let text = if r.path == "app/main.pp" { main } else { net };
                (
                    r.path.to_string(),
                    text[std::ops::Range::<usize>::from(r.range)].to_owned(),
                )
            })
            .collect()
    };
    let in_parent = |found: Vec<(String, String)>| -> Vec<String> {
        (found.into_iter())
            .filter(|(path, _)| path == "app/main.pp")
            .map(|(_, text)| text)
            .collect()
    };
    assert_eq!(in_parent(places("cidr\" \"string\"")), ["cidr"]);
    assert_eq!(in_parent(places("subnet\" {")), ["subnet"]);
    assert!(in_parent(places("zones\"")).is_empty());
    // From the parent's side, on the input: the same places.
    let from_parent = (analysis.references("app/main.pp", offset_of(main, "cidr =")))
        .expect("no cancellation")
        .into_iter()
        .map(|r| (r.path.to_string(), r.range))
        .collect::<Vec<_>>();
    let from_config = (analysis.references("app/net/main.pp", offset_of(net, "cidr\"")))
        .expect("no cancellation")
        .into_iter()
        .map(|r| (r.path.to_string(), r.range))
        .collect::<Vec<_>>();
    assert_eq!(from_parent, from_config);
    assert_eq!(from_parent.len(), 3);
}

/// Highlighting: a declaration's name label as a variable (as its uses), its type token
/// or type as a type, a top-level local's name as a variable, an attribute in a body as a
/// property.
#[test]
fn highlight_classes_of_names_and_labels() {
    let mut host = host_with_the_web_schema();
    let main = "config \"prefix\" \"string\" {}\n\nlocal = prefix\n\nresource site \"web:index:Bucket\" {\n  name = local\n}\n";
    set_program(&mut host, "h", &[("main.pp", main)]);
    let classes = (host.analysis().highlight("h/main.pp")).expect("no cancellation");
    let class_of = |needle: &str| -> Vec<crate::TokenClass> {
        let at = offset_of(main, needle);
        (classes.iter())
            .filter(|(range, _)| range.contains(at))
            .map(|(_, class)| *class)
            .collect()
    };
    use crate::TokenClass::{Property, Type, Variable};
    assert_eq!(class_of("prefix\" \"string"), [Variable]);
    assert_eq!(class_of("string\" {}"), [Type]);
    assert_eq!(class_of("local = prefix"), [Variable]);
    assert_eq!(class_of("site \""), [Variable]);
    assert_eq!(class_of("web:index"), [Type]);
    assert_eq!(class_of("name = local"), [Property]);
}

/// Typed with nothing closed yet (an editor that does not close brackets and quotes):
/// a type label's tokens with its quote open, and a body's unset inputs with its brace
/// open, as when they are closed.
#[test]
fn completion_before_quotes_and_braces_are_closed() {
    let complete = |text: &str| -> (Vec<String>, Vec<Option<String>>) {
        let mut host = host_with_the_web_schema();
        set_program(&mut host, "m", &[("main.pp", text)]);
        let at = TextSize::of(text);
        let found = (host.analysis().completions("m/main.pp", at)).expect("no cancellation");
        let replaced = (found.iter())
            .map(|item| {
                item.replace
                    .map(|r| text[std::ops::Range::<usize>::from(r)].to_owned())
            })
            .collect();
        (found.into_iter().map(|item| item.label).collect(), replaced)
    };
    // Each item replaces what is typed after the quote.
    for (text, typed) in [
        ("resource site \"", ""),
        ("x = 1\n\nresource site \"web:index:B", "web:index:B"),
    ] {
        let (labels, replaced) = complete(text);
        assert!(
            labels.contains(&"web:index:Bucket".to_owned()),
            "{labels:?}"
        );
        assert!(
            replaced.iter().all(|r| r.as_deref() == Some(typed)),
            "{replaced:?}"
        );
    }
    let (labels, _) = complete("config size \"");
    assert!(labels.contains(&"int".to_owned()), "{labels:?}");
    let (labels, _) = complete("resource site \"web:index:Bucket\" {\n  name = \"x\"\n  ");
    assert_eq!(
        labels,
        ["storageClass", "tags", "versioning", "website", "options"]
    );
    let (labels, _) = complete("resource site \"web:index:Bucket\" {\n  ");
    assert!(labels.contains(&"name".to_owned()), "{labels:?}");
}

/// The signature of the builtin being called, with the argument at the cursor active:
/// inside the parentheses, and after a `,` before the call is closed.
#[test]
fn signature_help_inside_a_call_closed_or_not() {
    let active = |text: &str, marker: &str| -> Option<usize> {
        let mut host = host_with_the_web_schema();
        set_program(&mut host, "m", &[("main.pp", text)]);
        let at = match marker {
            "" => TextSize::of(text),
            marker => offset_of(text, marker),
        };
        let help = (host.analysis().signature_help("m/main.pp", at)).expect("no cancellation");
        help.map(|help| help.active_parameter)
    };
    let names = "names = [\"a\", \"b\"]\n";
    assert_eq!(
        active(&format!("{names}x = element(names, HERE)\n"), "HERE)"),
        Some(1)
    );
    assert_eq!(active(&format!("{names}x = element(HERE"), "HERE"), Some(0));
    assert_eq!(active(&format!("{names}x = element(names, "), ""), Some(1));
    assert_eq!(active(&format!("{names}x = element("), ""), Some(0));
    assert_eq!(active(&format!("{names}x = element(names)\n"), ""), None);
}

/// The replacements the fixes of `resource t "PACKAGE:index:Tree" {}` write, with the
/// schema of `package` (version 1.0.0) loaded beside the web schema.
fn empty_tree_fixes(package: &str, schema: &str) -> Vec<String> {
    let mut host = host_with_the_web_schema();
    host.add_schema(&format!("{package}-1.0.0.json"), schema)
        .expect("the schema loads");
    let main = format!("resource t \"{package}:index:Tree\" {{\n}}\n");
    let id = set_program(&mut host, "app", &[("main.pp", &main)]);
    (super::diagnostics(&host, &id).iter())
        .flat_map(|d| d.fixes.iter())
        .flat_map(|fix| fix.edits.iter())
        .map(|edit| edit.replacement.clone())
        .collect()
}

/// The fix for a missing enum input writes one of its members (a value the input takes),
/// one for an input that takes several types a value of the first, and one for an object
/// its required properties (quoted when they are no PCL name).
#[test]
fn the_missing_input_fix_writes_a_value_the_input_takes() {
    let schema = r##"{ "name": "plant", "version": "1.0.0",
        "resources": { "plant:index:Tree": {
            "requiredInputs": ["kind", "height", "shape"],
            "inputProperties": {
                "kind": { "$ref": "#/types/plant:index:Kind" },
                "height": { "oneOf": [ { "type": "integer" }, { "type": "string" } ] },
                "shape": { "$ref": "#/types/plant:index:Shape" } } } },
        "types": { "plant:index:Kind": { "type": "string",
            "enum": [ { "value": "Oak" }, { "value": "Birch" } ] },
            "plant:index:Shape": { "type": "object", "required": ["width", "crown.size"],
                "properties": { "width": { "type": "integer" }, "label": { "type": "string" },
                    "crown.size": { "type": "string" } } } } }"##;
    let replacements = empty_tree_fixes("plant", schema);
    assert_eq!(
        replacements,
        [
            "{\n  height = 0",
            "{\n  kind = \"Oak\"",
            "{\n  shape = { \"crown.size\" = \"\", width = 0 }"
        ]
    );
}

/// `range.` in a ranged resource offers the variable's two attributes; the name a block
/// declares (`resource |`) offers nothing.
#[test]
fn completion_of_the_range_variable_and_of_a_new_name() {
    let complete = |text: &str, marker: &str| -> Vec<String> {
        let mut host = host_with_the_web_schema();
        set_program(&mut host, "m", &[("main.pp", text)]);
        let at = offset_of(text, marker);
        let found = (host.analysis().completions("m/main.pp", at)).expect("no cancellation");
        found.into_iter().map(|item| item.label).collect()
    };
    let ranged = "resource b \"web:index:Bucket\" {\n  name = \"b-${range.HERE}\"\n  options {\n    range = 2\n  }\n}\n";
    assert_eq!(complete(ranged, "HERE"), ["value", "key"]);
    // A value in a resource's body: other declarations, not the resource itself.
    let own = "x = 1\n\nresource b \"web:index:Bucket\" {\n  name = HERE\n}\n";
    let values = complete(own, "HERE");
    assert!(
        values.contains(&"x".to_owned()) && !values.contains(&"b".to_owned()),
        "{values:?}"
    );
    // After a line whose text has a `{` (in a string): a top-level line still.
    let after_brace = complete("x = \"${a}\"\nHERE", "HERE");
    assert!(
        after_brace.contains(&"resource".to_owned()),
        "{after_brace:?}"
    );
    let declaring = "x = 1\n\nresource HERE\n";
    assert_eq!(complete(declaring, "HERE"), Vec::<String>::new());
    let ignored = "resource b \"web:index:Bucket\" {\n  name = \"b\"\n  options {\n    ignoreChanges = [tags, HERE]\n  }\n}\n";
    let inputs = complete(ignored, "HERE");
    assert!(
        inputs.contains(&"name".to_owned()) && inputs.contains(&"website".to_owned()),
        "{inputs:?}"
    );
}

/// Every builtin says what it does, on hover and in completion (beside its signature).
#[test]
fn builtins_are_described_on_hover_and_in_completion() {
    for name in pcl_sema::BUILTIN_FUNCTIONS {
        assert!(
            pcl_sema::builtin_summary(name).is_some(),
            "{name} has no summary"
        );
    }
    let mut host = host_with_the_web_schema();
    let main = "names = [\"a\"]\ncount = length(names)\nother = \n";
    set_program(&mut host, "m", &[("main.pp", main)]);
    let analysis = host.analysis();
    let hover = (analysis.hover("m/main.pp", offset_of(main, "length")))
        .expect("no cancellation")
        .expect("a hover");
    assert!(
        hover.markdown.contains("length(value"),
        "{}",
        hover.markdown
    );
    assert!(
        hover.markdown.contains("number of elements"),
        "{}",
        hover.markdown
    );
    let items = (analysis
        .completions("m/main.pp", offset_of(main, "other = ") + TextSize::from(8)))
    .expect("no cancellation");
    let length = items
        .iter()
        .find(|item| item.label == "length")
        .expect("length is offered");
    assert!(
        length.detail.starts_with("length(value"),
        "{}",
        length.detail
    );
    assert!(
        length
            .documentation
            .as_deref()
            .is_some_and(|d| d.contains("number of elements"))
    );
}

/// The options offered in an `options` block each say what they do.
#[test]
fn resource_options_are_described_in_completion() {
    let mut host = host_with_the_web_schema();
    let main = "resource b \"web:index:Bucket\" {\n  name = \"b\"\n  options {\n    HERE\n  }\n}\n";
    set_program(&mut host, "m", &[("main.pp", main)]);
    let items = (host
        .analysis()
        .completions("m/main.pp", offset_of(main, "HERE")))
    .expect("no cancellation");
    assert!(
        items.iter().any(|item| item.label == "protect"),
        "{items:?}"
    );
    for item in &items {
        assert!(
            item.documentation.is_some(),
            "{} has no description",
            item.label
        );
        assert!(
            item.detail.starts_with("resource option"),
            "{}",
            item.detail
        );
    }
}

/// Terraform's `count` and `depends_on` among a resource's inputs: the fix moves each
/// into an `options` block as PCL's option, and the program then checks clean.
#[test]
fn terraform_settings_move_into_an_options_block() {
    for (setting, moved) in [
        ("count = 2", "options { range = 2 }"),
        ("depends_on = [a]", "options { dependsOn = [a] }"),
    ] {
        let main = format!(
            "resource a \"web:index:Bucket\" {{\n  name = \"a\"\n}}\n\nresource b \"web:index:Bucket\" {{\n  name = \"b\"\n  {setting}\n}}\n"
        );
        let mut host = host_with_the_web_schema();
        let id = set_program(&mut host, "app", &[("main.pp", &main)]);
        let found = super::diagnostics(&host, &id);
        let fix = (found.iter())
            .flat_map(|d| d.fixes.iter())
            .next()
            .expect("a fix");
        let mut edits: Vec<_> = fix.edits.iter().collect();
        edits.sort_by_key(|edit| std::cmp::Reverse(edit.span.range.start()));
        let mut applied = main.clone();
        for edit in edits {
            applied.replace_range(
                std::ops::Range::<usize>::from(edit.span.range),
                &edit.replacement,
            );
        }
        assert_eq!(applied, main.replace(setting, moved));
        let id = set_program(&mut host, "app", &[("main.pp", &applied)]);
        assert_eq!(super::summary(&super::diagnostics(&host, &id)), "");
    }
}

/// A fix's new lines follow the file's: `\r\n` line ends, tab indentation.
#[test]
fn fixes_write_lines_as_the_file_does() {
    for (main, expected) in [
        (
            "resource a \"web:index:Bucket\" {\r\n}\r\n",
            "{\r\n  name = \"\"",
        ),
        (
            "x = {\n\ty = 1\n}\n\nresource a \"web:index:Bucket\" {\n}\n",
            "{\n\tname = \"\"",
        ),
    ] {
        let mut host = host_with_the_web_schema();
        let id = set_program(&mut host, "app", &[("main.pp", main)]);
        let found = super::diagnostics(&host, &id);
        let edit = (found.iter())
            .flat_map(|d| d.fixes.iter())
            .flat_map(|fix| fix.edits.iter())
            .next()
            .expect("a fix");
        assert_eq!(edit.replacement, expected);
    }
}

/// The attributes offered after a resource's name carry their schema descriptions.
#[test]
fn attributes_of_a_resource_carry_their_descriptions() {
    let schema = r#"{ "name": "zoo", "version": "1.0.0",
        "resources": { "zoo:index:Pen": {
            "properties": { "capacity": { "type": "integer", "description": "How many animals fit." } },
            "inputProperties": {} } } }"#;
    let mut host = host_with_the_web_schema();
    host.add_schema("zoo-1.0.0.json", schema)
        .expect("the schema loads");
    let main = "resource pen \"zoo:index:Pen\" {}\n\nsize = pen.HERE\n";
    set_program(&mut host, "m", &[("main.pp", main)]);
    let items = (host
        .analysis()
        .completions("m/main.pp", offset_of(main, "HERE")))
    .expect("no cancellation");
    let capacity = items
        .iter()
        .find(|item| item.label == "capacity")
        .expect("offered");
    assert_eq!(
        capacity.documentation.as_deref(),
        Some("How many animals fit.")
    );
}

/// A required input whose type holds itself through a union (`next: Node | string`): the
/// missing-input fix writes it three objects deep, and checking does not recurse forever.
#[test]
fn the_missing_input_fix_of_a_type_that_holds_itself() {
    let schema = r##"{ "name": "rec", "version": "1.0.0",
        "resources": { "rec:index:Tree": {
            "requiredInputs": ["root"],
            "inputProperties": { "root": { "$ref": "#/types/rec:index:Node" } } } },
        "types": { "rec:index:Node": { "type": "object", "required": ["next"],
            "properties": { "next": { "oneOf": [
                { "$ref": "#/types/rec:index:Node" }, { "type": "string" } ] } } } } }"##;
    let replacements = empty_tree_fixes("rec", schema);
    assert_eq!(
        replacements,
        ["{\n  root = { next = { next = { next = {} } } }"]
    );
}

//! End-to-end tests of `pcl check` on Pulumi projects (issue 27): each project under
//! `tests/data/projects/` is checked by the real binary from the repository root, as the
//! README's first run does (`PULUMI_HOME=tests/data/pulumi-home`, which holds the
//! `hosting` provider's schema with its configuration variables), and the transcripts of
//! its runs are compared with `tests/data/projects/NAME.txt`. `UPDATE_EXPECT=1` rewrites
//! them.

mod common;

use std::path::Path;
use std::process::Command;

use expect_test::expect_file;

fn run(args: &[&str], root: &Path) -> String {
    let data = pcl_test_utils::test_data_dir();
    let output = Command::new(env!("CARGO_BIN_EXE_pcl"))
        .args(args)
        .current_dir(root)
        .env_remove("PCL_SCHEMA_PATH")
        .env("PULUMI_HOME", "tests/data/pulumi-home")
        .env("XDG_CACHE_HOME", data.join("schema-sources/xdg-cache"))
        .env("PATH", "/nonexistent")
        .output()
        .expect("the pcl binary runs");
    common::transcript(&format!("$ pcl {}", args.join(" ")), &output)
}

/// The runs of each project, by fixture name; each starts `check --color never`.
const RUNS: &[(&str, &[&[&str]])] = &[
    (
        "website",
        &[
            &["tests/data/projects/website"],
            &["--stack", "prod", "tests/data/projects/website"],
            &["--stack", "acme/website/dev", "tests/data/projects/website"],
            &["--stack", "qa", "tests/data/projects/website"],
            // A path below the project file gets stack checks when it is `main`.
            &["tests/data/projects/website/infra"],
            &[
                "--stack",
                "dev",
                "tests/data/projects/website/infra/main.pp",
            ],
            // A project file stands for its project; a stack file, for it with that stack.
            &["tests/data/projects/website/Pulumi.yaml"],
            &["tests/data/projects/website/Pulumi.prod.yaml"],
            // ... and not with another stack.
            &[
                "--stack",
                "dev",
                "tests/data/projects/website/Pulumi.prod.yaml",
            ],
            // Any other YAML or JSON file is no program.
            &[
                "tests/data/projects/website/infra/main.pp",
                "tests/data/schemas/enums.json",
            ],
        ],
    ),
    (
        "mistakes",
        &[
            &["tests/data/projects/mistakes"],
            &[
                "--format",
                "json",
                "--stack",
                "prod",
                "tests/data/projects/mistakes",
            ],
            &[
                "--format",
                "sarif",
                "--stack",
                "staging",
                "tests/data/projects/mistakes",
            ],
        ],
    ),
    ("json-project", &[&["tests/data/projects/json-project"]]),
    ("broken", &[&["tests/data/projects/broken"]]),
    ("nameless", &[&["tests/data/projects/nameless"]]),
    ("no-program", &[&["tests/data/projects/no-program"]]),
    ("missing-main", &[&["tests/data/projects/missing-main"]]),
    ("main-forgotten", &[&["tests/data/projects/main-forgotten"]]),
    (
        "monorepo",
        &[
            &["tests/data/projects/monorepo"],
            &["--stack", "dev", "tests/data/projects/monorepo"],
        ],
    ),
    (
        "other-runtime",
        &[
            &["tests/data/projects/other-runtime"],
            &["--stack", "dev", "tests/data/projects/other-runtime"],
        ],
    ),
    ("two-files", &[&["tests/data/projects/two-files"]]),
    (
        "no-project",
        &[&["--stack", "dev", "tests/data/check/config"]],
    ),
];

#[test]
fn project_transcripts() {
    let root = pcl_test_utils::project_root();
    for (name, runs) in RUNS {
        let mut transcript = String::new();
        for args in *runs {
            let mut all = vec!["check", "--color", "never"];
            all.extend_from_slice(args);
            transcript.push_str(&run(&all, &root));
            transcript.push('\n');
        }
        let expected = root.join(format!("tests/data/projects/{name}.txt"));
        expect_file![expected].assert_eq(&transcript);
    }
}

/// UTF-16 with a byte order mark (PowerShell 5 writes YAML so), which Pulumi's YAML
/// library reads: read as the text it is.
#[test]
fn project_and_stack_files_in_utf16() {
    let utf16 = |text: &str| -> Vec<u8> {
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        bytes
    };
    let project = utf16("name: wide\nruntime: pcl\n");
    let stack = utf16("config:\n  wide:size: big\n");
    let dir = common::scratch(
        "project-utf16",
        &[
            ("Pulumi.yaml", &project),
            ("Pulumi.dev.yaml", &stack),
            ("main.pp", b"config \"size\" \"int\" {}\n"),
        ],
    );
    let found = run(&["check", "--color", "never", "."], &dir);
    assert!(
        found.contains("`wide:size`: `big` is not an int"),
        "{found}"
    );
}

/// Pulumi reads project and stack files as UTF-8: one that is not cannot be read, an IO
/// error (exit 2) naming its first invalid byte, and the rest is still checked.
#[test]
fn project_and_stack_files_that_are_not_utf8() {
    let project = b"name: latin\nruntime: pcl\n";
    let dir = common::scratch(
        "project-not-utf8",
        &[
            ("stacks/Pulumi.yaml", project),
            ("stacks/main.pp", b"config \"size\" \"int\" {}\n"),
            ("stacks/Pulumi.dev.yaml", b"config:\n  latin:size: 2\n"),
            ("stacks/Pulumi.qa.yaml", b"config:\n  latin:size: \xff\n"),
            ("project/Pulumi.yaml", b"name: caf\xe9\nruntime: pcl\n"),
            ("project/main.pp", b"x = 1\n"),
        ],
    );
    let runs: String = ["stacks", "project"]
        .iter()
        .map(|path| run(&["check", "--color", "never", path], &dir))
        .collect();
    expect_test::expect![[r#"
        $ pcl check --color never stacks
        stderr: error: `stacks/Pulumi.qa.yaml` is not valid UTF-8: byte 0xff at offset 22 does not start a valid UTF-8 sequence
        stderr: checked 1 program, 3 files (5 lines, 72 B) in <time>: 1 IO error (above)
        exit 2
        $ pcl check --color never project
        stderr: error: `project/Pulumi.yaml` is not valid UTF-8: byte 0xe9 at offset 9 does not start a valid UTF-8 sequence
        stderr: checked 1 program, 1 file (1 line, 6 B) in <time>: 1 IO error (above)
        exit 2
    "#]]
    .assert_eq(&runs);
}

//! Seeded generators of large, syntactically valid PCL programs for benchmarks and xtask.

use std::fmt::Write;

/// The shape of a generated program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Ordinary configuration: resources with literals, objects, lists, references and calls.
    Config,
    /// Strings with interpolations and directives, and heredocs, in most attributes.
    Templates,
    /// Objects and tuples nested about thirty levels deep.
    Nested,
}

impl Shape {
    pub const ALL: [Shape; 3] = [Shape::Config, Shape::Templates, Shape::Nested];

    pub fn name(self) -> &'static str {
        match self {
            Shape::Config => "config",
            Shape::Templates => "templates",
            Shape::Nested => "nested",
        }
    }
}

/// A program of the given shape, at least `target_bytes` long, the same for the same seed.
pub fn program(shape: Shape, target_bytes: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut res = String::with_capacity(target_bytes + 4096);
    res.push_str("config \"env\" \"string\" {\n  default = \"dev\"\n}\n\n");
    let mut idx = 0usize;
    while res.len() < target_bytes {
        match shape {
            Shape::Config => config_resource(&mut res, &mut rng, idx),
            Shape::Templates => template_resource(&mut res, &mut rng, idx),
            Shape::Nested => nested_resource(&mut res, &mut rng, idx),
        }
        idx += 1;
    }
    res
}

fn config_resource(acc: &mut String, rng: &mut Rng, idx: usize) {
    let prev = idx.saturating_sub(1);
    let _ = write!(
        acc,
        r#"resource "bucket{idx}" "aws:s3/bucket:Bucket" {{
  bucketName = "bucket-{idx}"
  size       = {size}
  ratio      = {whole}.{frac}
  enabled    = {enabled}
  tags = {{
    Name        = "name-{idx}"
    Environment = env
    "cost:center" = "cc{cc}"
  }}
  ports    = [80, 443, {port}]
  previous = bucket{prev}.id
  computed = length(bucket{prev}.ports) + {size} * 3 - 1
  website = {{
    indexDocument = "index.html"
    routingRules  = jsonencode([{{ condition = {{ prefix = "docs/" }}, redirect = {{ replaceKeyPrefixWith = "documents/" }} }}])
  }}
  options {{
    dependsOn = [bucket{prev}]
    protect   = {enabled}
  }}
}}

"#,
        size = rng.below(100_000),
        whole = rng.below(100),
        frac = rng.below(1000),
        enabled = rng.below(2) == 1,
        cc = rng.below(50),
        port = 1024 + rng.below(60_000),
    );
}

fn template_resource(acc: &mut String, rng: &mut Rng, idx: usize) {
    let prev = idx.saturating_sub(1);
    let _ = write!(
        acc,
        r#"resource "site{idx}" "aws:s3/bucketObject:BucketObject" {{
  key     = "pages/${{env}}/page-{idx}-${{site{prev}.key}}.html"
  title   = "Page {idx}: %{{ if env == "prod" }}live%{{ else }}preview%{{ endif }} ${{upper(env)}}"
  escaped = "tab\there \"quoted\" $${{literal}} \u00e9 {n}"
  list    = "%{{ for i, v in site{prev}.items ~}}${{i}}=${{v}}, %{{~ endfor }}"
  content = <<-HTML
    <html>
      <head><title>${{env}} page {idx}</title></head>
      <body class="${{env}}">
        %{{ if length(site{prev}.items) > {n} }}many%{{ else }}few%{{ endif }} items
        <p>${{join(", ", site{prev}.items)}}</p>
      </body>
    </html>
    HTML
  script = <<EOT
#!/bin/sh
echo "${{env}}-{idx}"
EOT
}}

"#,
        n = rng.below(1000),
    );
}

fn nested_resource(acc: &mut String, rng: &mut Rng, idx: usize) {
    let depth = 20 + rng.below(12);
    let _ = writeln!(acc, "resource \"deep{idx}\" \"test:index:Deep\" {{");
    acc.push_str("  value = ");
    for level in 0..depth {
        if level % 2 == 0 {
            let _ = write!(acc, "{{ key{level} = \"v{level}\", next = ");
        } else {
            let _ = write!(acc, "[{level}, ");
        }
    }
    acc.push_str("null");
    for level in (0..depth).rev() {
        acc.push_str(if level % 2 == 0 { " }" } else { "]" });
    }
    acc.push_str("\n  call = f(g(h(i(j(k(1, 2), 3), 4), 5), 6), 7)\n");
    acc.push_str("  paren = ((((((((1 + 2) * 3) - 4) / 5) % 6) + 7) * 8) - 9)\n}\n\n");
}

/// A tiny xorshift generator: deterministic across platforms, no dependency.
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed` (0 is replaced by 1, which xorshift needs).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    /// A number in `0..bound` (0 when `bound` is 0).
    pub fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound.max(1) as u64) as usize
    }
}

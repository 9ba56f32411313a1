# Every form lowering knows, once: what each declaration's body holds.
config "env" "string" {
  default = "dev"
}

resource "web" "pkg:index:Site" {
  name    = "web-${env}"
  count   = -5
  ratio   = 2.5e3
  enabled = !false
  nothing = null
  tags = {
    team       = "t"
    "quoted"   = 1
    7          = "seven"
    (env)      = "computed"
    "a\"b\n"   = "escaped"
  }
  items  = [1, "two", env]
  picked = items[0]
  legacy = items.0
  names  = items[*].name
  deep   = web.tags["team"]
  sum    = 1 + 2 * 3 - 4 / 2 % 1
  logic  = env == "prod" && (true || false) ? "strict" : "lenient"
  joined = join(",", items...)
  spaced = std::upper("x")
  options {
    dependsOn = [web]
  }
}

listed = [for i, v in ["a", "b"] : "${i}:${v}" if v != ""]
grouped = { for k, v in { a = 1 } : v => k... }
directives = "%{ if env == "dev" }d%{ else }p%{ endif }%{ for x in [1, 2] }${x}%{ endfor }"
doc = <<-EOT
    indented ${env}
      more
    EOT

output "out" {
  value = web.name
}

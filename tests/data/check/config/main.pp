# Config type labels and attributes.
config "count" "integer" {}

config "tags" "map(string)" {
  description = "${count} tags"
  nullable    = "yes"
}

config "sizes" "list(int)" {
  default = { one = 1 }
}

config "deep" "map(list(object({name = string, port = int})))" {}

output "firstPort" {
  value = deep["web"][0].port
}

# A default is written as written in the converted program: a quoted number or bool
# stays a string there (beyond Go, which converts it).
config "replicas" "int" {
  default = "3"
}

config "verbose" "bool" {
  default = "false"
}

config "label" "string" {
  default = "3"
}

# `nullable` is read by no code generator: without a default the config is still required.
config "zone" "string" {
  nullable = true
}

config "region" "string" {
  default = null
}

# A namespaced config name: Pulumi YAML's `app:seed`. No expression can read it.
config "app:seed" "int" {}

output "seeded" {
  value = seed
}

# A collection type without its element type.
config "zones" "list" {}

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

# A program whose project file is JSON (Pulumi.json): its stack files are JSON too.
config "count" "int" {}

config "enabled" "bool" {
  default = true
}

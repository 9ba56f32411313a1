config "cidr" "string" {}

config "zones" "int" {}

output "subnetIds" {
  value = ["${cidr}-a"]
}

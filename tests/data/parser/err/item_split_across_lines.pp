invalid

source "amazon-ebs" "example" {
  region = var.region
}
a
  = 1
resource "r"
  "b" {
}
ok = 2

# Top-level blocks PCL does not know are ignored; blocks with the wrong labels declare nothing.
terraform {
  required_version = ">= 1.0"
}

resource "justAName" {
}

hook "later" "notify" {
  command = ["echo"]
}

package "web" {
  baseProviderName = "web"
}

package "labelled" {
  baseProviderVersion = "1.0.0"
}

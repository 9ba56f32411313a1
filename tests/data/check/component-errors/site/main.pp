config "name" "string" {}

resource "bucket" "web:index:Bucket" {
  nmae = name
}

output "endpoint" {
  value = bucket.websiteEndpoint
}

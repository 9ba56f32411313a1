# A missing `{` after `=` is reported first, and says what is missing.
resource site "web:index:Bucket" {
  name = "site"
  website =
    indexDocument = "index.html"
  }
}

output url {
  value = site.websiteEndpoint
}

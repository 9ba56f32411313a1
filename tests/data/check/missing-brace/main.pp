# One missing `{`: the syntax error is the one reported, not the inputs the body seems to lack.
resource site "web:index:Bucket" {
  name = "site"
  website = {
    indexDocument = "index.html"
  }
}

resource page "web:index:Page"
  bucket  = site.name
  key     = "index.html"
  content = "<h1>hi</h1>"
}

output url {
  value = site.websiteEndpoint
}

# The example with mistakes, to show what `pcl check` finds:
#   pcl check --schema-dir tests/data/programs/schemas tests/data/programs/mistakes

config "siteName" "string" {
  default = "pcl example"
}

config "pages" "list(string)" {
  default = ["index", "about"]
}

resource "siteBucket" "web:index:Bucket" {
  website = {
    indexDocumnet = "index.html"
  }
  versioning = [true]
}

resource "page" "web:index:Page" {
  options {
    range     = length(page)
    dependsOn = siteBucket
  }
  bucket  = siteBucket.nmae
  key     = "${pages[range.value]}.html"
  content = "<h1>${sitename}</h1>"
  size    = 10
}

output "url" {
  value = "http://${siteBucket.websiteEndpoint}"
}

resource "site" "web:index:Bucket" {
  website =
    indexDocument = "index.html"
  }
}

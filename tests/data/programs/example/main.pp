# A small PCL program: a static website in a bucket, one object per page.

config "siteName" "string" {
  description = "The name shown in the page titles"
  default     = "pcl example"
}

config "pages" "list(string)" {
  default = ["index", "about"]
}

resource "siteBucket" "aws:s3/bucket:Bucket" {
  website = {
    indexDocument = "index.html"
  }
  tags = {
    Name = "${siteName}-bucket"
  }
}

resource "page" "aws:s3/bucketObject:BucketObject" {
  options {
    range     = length(pages)
    dependsOn = [siteBucket]
  }
  bucket      = siteBucket.id
  key         = "${pages[range.value]}.html"
  contentType = "text/html"
  content     = <<-HTML
    <html>
      <head><title>${siteName}: ${pages[range.value]}</title></head>
      <body>%{ if range.value == 0 }Welcome!%{ else }More pages.%{ endif }</body>
    </html>
    HTML
}

websiteUrl = "http://${siteBucket.websiteEndpoint}"

output "url" {
  value = websiteUrl
}

output "pageKeys" {
  value = [for p in page : p.key]
}

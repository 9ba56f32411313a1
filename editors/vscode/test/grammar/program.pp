# A whole program: a static site, one page per name.
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
}

resource "page" "aws:s3/bucketObject:BucketObject" {
  options {
    range     = length(pages)
    dependsOn = [siteBucket]
    version   = "6.0.0"
  }
  bucket      = siteBucket.id
  key         = "${pages[range.value]}.html"
  contentType = "text/html"
  content     = <<-HTML
    <html>
      <head><title>${siteName}: ${pages[range.value]}</title></head>
      <body>%{if range.value == 0}Welcome!%{else}More pages.%{endif}</body>
    </html>
    HTML
  source      = fileAsset("./pages/${pages[range.value]}.html")
}

zones = invoke("aws:index/getAvailabilityZones:getAvailabilityZones", {
  state = "available"
})

output "url" {
  value = "http://${siteBucket.websiteEndpoint}"
}

output "pageKeys" {
  value = [for p in page : p.key]
}

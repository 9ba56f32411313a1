# A small PCL program: a static website in a bucket, one page per name.
# Check it with: pcl check --schema-dir tests/data/programs/schemas tests/data/programs/example

config "siteName" "string" {
  description = "The name shown in the page titles"
  default     = "pcl example"
}

config "pages" "list(string)" {
  default = ["index", "about"]
}

resource "siteBucket" "web:index:Bucket" {
  name = "${siteName}-site"
  website = {
    indexDocument = "index.html"
  }
  tags = {
    Name = "${siteName}-bucket"
  }
}

resource "page" "web:index:Page" {
  options {
    range     = length(pages)
    dependsOn = [siteBucket]
  }
  bucket      = siteBucket.name
  key         = "${pages[range.value]}.html"
  contentType = "text/html"
  content     = <<-HTML
    <html>
      <head><title>${siteName}: ${pages[range.value]}</title></head>
      <body>%{if range.value == 0}Welcome!%{else}More pages.%{endif}</body>
    </html>
    HTML
}

region = invoke("web:index:getRegion", { bucket = siteBucket.name })

websiteUrl = "http://${siteBucket.websiteEndpoint}"

output "url" {
  value = websiteUrl
}

output "pageKeys" {
  value = [for p in page : p.key]
}

output "zones" {
  value = region.zones
}

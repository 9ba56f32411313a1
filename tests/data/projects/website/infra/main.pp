# The website project's program: its configs are set by each stack file.

config "siteName" "string" {
  description = "The name shown on the site"
}

config "replicas" "int" {
  description = "How many copies serve the site"
}

config "public" "bool" {
  default = true
}

config "domains" "list(string)" {
  default = []
}

config "limits" "object({requests = int, burst = int})" {
  default = null
}

config "apiToken" "string" {
  secret  = true
  default = ""
}

config "ownerEmail" "string" {
  __logicalName = "owner"
}

resource "site" "hosting:index:Site" {
  name     = siteName
  replicas = replicas
  public   = public
  domains  = domains
}

output "url" {
  value = site.url
}

output "owner" {
  value = ownerEmail
}

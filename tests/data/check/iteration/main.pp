# Iteration and traversal of values of the wrong kind.
config "names" "list(string)" {}

letters = [for c in "abc" : c]
pair = ["a", 1]
third = pair[2]
byName = pair["first"]
size = "big".length
settings = { Verbose = true }
verbose = settings.verbose

# One resource (no `range`) iterated as a collection.
resource site "web:index:Bucket" {
  name = "site"
}

siteIds = [for b in site : b.id]

# An attribute of a list's elements taken from the list itself.
config servers "list(object({name = string}))" {}

cluster    = { servers = servers }
serverName = servers.name
nestedName = cluster.servers.name

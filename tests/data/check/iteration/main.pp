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

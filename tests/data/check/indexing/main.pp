# Non-literal keys are typed as Go's IndexExpression types them.
config n "int" {}
config key "string" {}
config maybe "list(string)" {
  default = null
}

b     = 2
aList = [1, 2.5, 3]
names = ["a", "b"]
ports = { http = 80, https = 443 }

byLocal   = aList[b]
byConfig  = aList[n]
byString  = names[key]
fromMap   = ports[key]
optional  = maybe[n]
eventual  = names[secret(n)]
outOfRange = aList[5]
empty      = [][0]
notIndexable = n[b]

# Literal list indexes a deploy cannot use (errors beyond Go): negative, fractional, or
# past the count of a resource's literal `range`.
config subnets "list(string)" {}

resource pages "web:index:Page" {
  options {
    range = 2
  }
  bucket  = "site"
  key     = "page-${range.value}"
  content = "<p>hello</p>"
}

last     = subnets[-1]
half     = subnets[1.5]
lastPage = pages[1].etag
noPage   = pages[2].etag
# Resources ranged over a list are numbered, not keyed by the list's strings.
namedPage = pages["home"].etag

# Resources ranged over a map are keyed by its keys: a number reads a key (a warning).
sizes = { small = "s", large = "l" }

resource sized "web:index:Page" {
  options {
    range = sizes
  }
  bucket  = "site"
  key     = range.key
  content = range.value
}

smallPage = sized["small"].etag
firstPage = sized[0].etag

# `range.value` is the element, not its index (`range.key`, Terraform's `count.index`).
resource perSubnet "web:index:Page" {
  options {
    range = subnets
  }
  bucket  = subnets[range.value]
  key     = subnets[range.key]
  content = range.value
}

# Other languages' `.length` (beyond Go, which reads a name as an index and fails at
# deploy): a list's elements are numbered, and PCL counts them with `length()`.
subnetCount = subnets.length
firstSubnet = subnets.first
labelSize   = "${subnets[0].Count}"
legacyIndex = subnets.0

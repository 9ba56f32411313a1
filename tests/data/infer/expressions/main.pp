# Types of expressions (pcl-semantics §3), printed by `pcl types`.
config "count" "int" {}
config "names" "list(string)" {}
config "secretName" "string" {
  secret = true
}
config "tags" "map(string)" {
  default = null
}
config "servers" "list(object({host = string, port = int}))" {}

resource "site" "web:index:Bucket" {
  name = secretName
}

big = 123456789012345678901234567890
fraction = 1.5
negative = -2147483648
flag = true
nothing = null
text = "plain"
unwrapped = "${count}"
template = "n=${count}"
eventualTemplate = "url: ${site.websiteEndpoint}"
tuple = [1, "a", true]
object = { a = 1, "b c" = "x" }
dynamicKeys = { (text) = 1, (template) = 2 }
intSum = count + count
numberSum = count + 1
comparison = count > 2
equality = names == []
logic = flag && !flag
conditional = flag ? 1 : 2
mixed = flag ? "a" : 1
orNull = flag ? "a" : null
liftedConditional = flag ? site.arn : "none"
upper = [for n in names : "${n}!"]
byName = { for n in names : n => length(n) }
grouped = { for i, n in names : n => i... }
filtered = [for n in names : n if n != ""]
eventualFor = [for k, v in site.tags : v]
splat = servers[*].host
ports = servers.*.port
index = names[0]
dynamicIndex = names[count]
elementOf = element(names, count)
lengthOf = length(site.arn)
joined = join(",", names)
lookupTag = lookup(tags, "env", "none")
entriesOf = entries(tags)
secretValue = secret(text)
attempt = try(names[5], "none")
canIt = can(names[5])
maximum = max(1, 2.5)
minimum = min(count, 3)
ranged = range(3)
single = singleOrNone(names)
asset = fileAsset("index.html")
json = toJSON({ a = 1 })
region = invoke("web:index:getRegion", { bucket = "b" })
eventualRegion = invoke("web:index:getRegion", { bucket = site.name })

output "url" {
  value = site.websiteEndpoint
}

output "typed" "list(string)" {
  value = names
}

numbers  = [0, 42, 1.5, 1e3, 2.5E-10, 1e+2]
literals = [true, false, null]
math     = -a + b * (c - d) / 2 % 3
logic    = !a && b || c == d && e != f
compare  = a < b && c <= d && e > f && g >= h
choice   = enabled ? "yes" : "no"
object   = { name = "x", "quoted" = 1, key: 2, (computed) = 3, nested = { a = [] } }
tuple    = [1, "two", [3]]
access   = bucket.arn
index    = items[0].name
legacy   = items.0
splat    = bucket[*].id
attrs    = bucket.*.id
list     = [for i, v in values: v * 2 if i > 0]
map      = {for k, v in tags: upper(k) => v... if v != null}
spread   = max(numbers...)
region   = invoke("aws:index/getRegion:getRegion", {})
asset    = fileAsset("./index.html")
archive  = fileArchive("./app")
secret   = secret(readFile("key.pem"))
custom   = ns::helper(1, 2)
user     = myFunction(x)
first-in = "names may contain dashes"
multi = [
  for s in subnets:
  s.id
]

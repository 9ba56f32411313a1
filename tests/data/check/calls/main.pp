# Calls: unknown functions, argument counts and shapes, invoke.
upper = toUpper("a")
joined = join(",")
toomany = length([1], [2])
# Go reads a number as its text; a converted program fails on it (beyond Go).
port = 8080
digits = length(port)
letters = length(toJSON(port))
first = element("abc", 0)
tokenName = "web:index:getRegion"
notLiteral = invoke(tokenName, {})
region = invoke("web:index:getRegin", { bucket = "b" })
noArgs = invoke("web:index:getRegion", { bucketName = "b" })
zones = invoke("web:index:getRegion", { bucket = "b" }).zones
# Go's binder needs the arguments object, even `{}`, and takes 3 arguments at most.
noObject = invoke("web:index:getRegion")
defaults = invoke("web:index:getDefaults").storageClass
extra = invoke("web:index:getDefaults", {}, {}, "more")
sum = max(1, "two", [3])

# `getOutput` reads an output of a stack reference (beyond Go: Go takes any value).
resource network "pulumi:pulumi:StackReference" {
  name = "acme/network/prod"
}

resource logs "web:index:Bucket" {
  name = "logs"
}

vpcId    = getOutput(network, "vpcId")
byName   = getOutput("acme/network/prod", "vpcId")
byBucket = getOutput(logs, "vpcId")

# A whole resource is no JSON value (beyond Go).
logsJson = toJSON(logs)
logsIds  = toJSON({ id = logs.id, urn = logs.urn })

# Pulumi removed `readDir` and `mimeType` from PCL (3.230.0); a converter's placeholder
# throws when the program runs.
siteFiles = readDir("./site")
indexType = mimeType("index.html")
untranslated = notImplemented("element(var.zones, 3)")

# A misspelt builtin: did-you-mean, with the fix.
misspelt = lenght(["a"])

# A builtin in another case, and one argument too many for a one-argument builtin.
document = toJson({ a = 1 })
page = fileAsset("./index.html", "text/html")

# Several values in one text where a list goes: split at commas, or a note for blanks.
zonesList = join("-", "north, south")
words     = join("-", "nginx -g off")
swapped   = join(["a", "b"], "-")
zonesText   = "north,south"
joinedZones = join("-", zonesText)

# What a user of Pulumi's SDKs (TypeScript, Python, Go, C#) brings to PCL: each gets
# what PCL writes instead.
resource site "web:index:Bucket" {
  name       = "site-${getStack()}"
  versioning = True
}

config env "string" {}
config names "list(string)" {}

defaults  = None
missing   = undefined
count     = len(names)
project   = "${stack}"
endpoint  = pulumi.interpolate
tags      = pulumi.StringMap
secretOne = pulumi.secret
document  = JSON.stringify
region    = process.env
negated   = not

# Method calls: one error each.
url     = site.websiteEndpoint.apply(e => "http://${e}")
joined  = names.join(",")
fromCfg = config.require("bucketName")

# JavaScript's default and Python's list concatenation.
fallback = env || "default-site"
groups   = names + ["extra"]

# Python's f-string and C#'s interpolation braces, literal text in PCL (a warning); the
# escaped `$${env}` and JSON braces are left alone.
logBucket = "logs-{env}"
escaped   = "literal $${env}"
document2 = "{\"env\": 1}"

# A type written as the SDKs' class path.
resource classPath "web.Bucket" {
  name = "by-class"
}

# Config types as TypeScript, Python and Go write them, and Python's `opts`.
config zones "string[]" {}
config labels "Record<string, string>" {}
config regionName "Output<string>" {}
config sizes "Dict[str, int]" {}

resource withOpts "web:index:Bucket" {
  name = "opts"
  opts = { protect = true }
}

# Go's arguments struct.
resource withArgs "web:index:Bucket" {
  args = { name = "args" }
}
shellStyle = "logs-$env"
# Braces that are not interpolation: a route's parameter, a template language's.
route    = "GET /users/{env}"
mustache = "Hello {{env}}"
config apiToken "secret" {}

resource ignoring "web:index:Bucket" {
  name = "ignoring"
  options {
    ignoreChanges = tags
  }
}
formatted = "logs-%s" % env
viaRequire = requireOutput(classPath, "x")

# A stack reference's output read as an attribute.
resource network "pulumi:pulumi:StackReference" {
  name = "acme/network/prod"
}
subnetFromReference = network.subnetIds

# C#'s dictionary initializer.
csharpTags = {
  ["Name"] = "web"
}

# A resource where one of its values is meant.
resource usesResource "web:index:Bucket" {
  name = withOpts
}

# Quoted names, and a wildcard.
resource quotedIgnores "web:index:Bucket" {
  name = "q"
  options {
    ignoreChanges           = ["name", "*"]
    additionalSecretOutputs = [websiteEndpoint]
  }
}

# An output's name quoted: no fix that unquotes it (the option takes inputs only).
resource quotedOutput "web:index:Bucket" {
  name = "o"
  options {
    additionalSecretOutputs = ["arn"]
  }
}

# Python's triple-quoted string.
script = """#!/bin/sh
echo hi
"""

# The SDKs' provider class as a resource type, and the last element the SDKs' way.
resource west "web:index:Provider" {}
config regions "list(string)" {
  default = ["eu-west-1"]
}
lastRegion = regions[-1]

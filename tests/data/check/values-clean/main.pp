# pcl-check-args: --schema-dir ../schemas
# The same program written right: strings that are numbers or booleans convert (but a
# config's default is written as written: see `config`).
config count "int" {
  default = 2
}

resource app "kube:apps:Deployment" {
  replicas    = "3"
  paused      = "false"
  ratio       = 0.5
  color       = "red"
  serviceType = "LoadBalancer"
  kind        = "Deployment"
  spec = {
    replicas = count
    template = "web"
  }
}

resource custom "kube:apps:Deployment" {
  serviceType = "MyOwnType"
}

zone = invoke("kube:index:getZone", { region = "eu", count = 1 })

config big "bool" {
  default = false
}

resource sized "kube:apps:Deployment" {
  replicas = big ? 5 : "3"
  paused   = big ? "true" : false
}

resource shaped "kube:apps:Deployment" {
  replicas = big ? 3 : null
}

label = "app-${count}"
total = "2" + 3

resource stash "pulumi:index:Stash" {
  input = { kept = label }
}

# Comparisons of one type, and of values whose types are known only at run time.
config anything "any" {}

three   = count == 3
enabled = big != true
sameId  = stash.id == "abc"
unknown = anything == "3"

# Valid programs near the checks beyond Go: a guarded index, `null` branches for
# options, an empty version, an object with a `urn` key, a map's key read as an
# attribute, and a comparison of a value whose type Go merges.
resource toggled "kube:apps:Deployment" {
  options {
    range = 0
  }
}

firstReady = length(toggled) > 0 ? toggled[0].ready : false

resource optional "kube:apps:Deployment" {
  options {
    protect        = big ? true : null
    version        = big ? "1.0.0" : null
    customTimeouts = big ? { create = "5m" } : null
  }
}

resource unpinned "kube:apps:Deployment" {
  options {
    version = ""
  }
}

payload     = { urn = app.urn, id = app.id }
payloadJson = toJSON(payload)

config pools "map(object({primary = string}))" {}

primaryPool = pools.primary.primary

mixed     = { port = 8080, host = "localhost" }
isDefault = lookup(mixed, "port", 80) == 8080
viaTry    = try(toggled[3].ready, false)
port      = lookup(mixed, "port", 80)
isDefault2 = port == 8080

resource portLike "oneof:index:Pet" {
  animal = { kind = "dog", good = true }
  size   = 8080
}

resource named "oneof:index:Pet" {
  animal = { kind = "dog", good = true }
  size   = "http"
}

# pcl-check-args: --schema-dir ../schemas
# The same program written right: strings that are numbers or booleans convert.
config count "int" {
  default = "2"
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

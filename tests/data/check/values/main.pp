# pcl-check-args: --schema-dir ../schemas
# A new user's mistakes with constant values: each binds in Pulumi's Go binder (as an
# unsafe conversion or an ignored property) and fails at deploy.
six = "six"

resource app "kube:apps:Deployment" {
  replicas    = six
  paused      = "no"
  ratio       = true
  color       = "rde"
  serviceType = "LoadBalencer"
  kind        = "Deploymnet"
  spec = {
    replcas  = 3
    template = "web"
  }
}

resource half "kube:apps:Deployment" {
  replicas = 2.5
  paused   = 1
}

# A map written where an object type goes: one diagnostic, not one per key.
resource mapped "kube:apps:Deployment" {
  spec = {
    "app.kubernetes.io/name" = "web"
    "app.kubernetes.io/tier" = "front"
  }
}

zone = invoke("kube:index:getZone", { region = "eu", count = "many" })

config count "int" {
  default = "two"
}

output total "int" {
  value = "lots"
}

# Constants in a conditional's branches and in operators.
config big "bool" {
  default = false
}

resource sized "kube:apps:Deployment" {
  replicas = big ? 5 : "few"
  paused   = "no" ? true : false
}

resource shaped "kube:apps:Deployment" {
  replicas = big ? 3 : [3]
}

label   = "app-" + six
negated = !"yes"

# Values of different types are never equal.
three   = count == "3"
enabled = big != "true"

# A required input of type `Any`: Go takes it as optional, the provider does not.
resource stash "pulumi:index:Stash" {}

# A key given twice: the last value would win.
owners = { team = "web", team = "platform" }

# An input of a number or a string takes a quoted number as the string (a warning).
resource portLike "oneof:index:Pet" {
  animal = { kind = "cat", lives = 9 }
  size   = "8080"
}

# Each element of a list of a discriminated union is checked as the member it names.
resource litterOfPets "oneof:index:Pet" {
  animal = { kind = "dog", good = true }
  litter = [{ kind = "cat", lives = 9 }, { kind = "dog", goood = true }]
}

# One object in `[ ]` where the object goes.
resource listedSpec "kube:apps:Deployment" {
  spec = [{ template = "web" }]
}

resource listedLines "kube:apps:Deployment" {
  spec = [
    {
      template = "web"
    }
  ]
}

# pcl-check-args: --schema-dir ../schemas
# Inputs that name a declaration, where the name is checked alone: at the top of an
# input, as a field of an object literal, as a key's value of a map. In an editor each
# such reference is judged once per declaration and expected type (`reference_fit`).
replicaCount = 3
ratioText    = "0.5"
colorName    = "rde"
serviceName  = "LoadBalancer"
serviceTypo  = "LoadBalencer"
templates    = ["web", "api"]
spec         = { replicas = 2, template = "web" }

config paused "bool" {
}

config label "string" {
}

resource fits "kube:apps:Deployment" {
  replicas    = replicaCount
  paused      = paused
  ratio       = ratioText
  serviceType = serviceName
  spec        = spec
}

resource misfits "kube:apps:Deployment" {
  replicas = label
  paused   = templates
  color    = colorName
  serviceType = serviceTypo
  kind     = label
  spec = {
    replicas = ratioText
    template = templates
  }
}

resource mixed "kube:apps:Deployment" {
  replicas = fits.replicas
  spec = {
    template = label
    replicas = replicaCount
  }
}

# pcl-check-args: --schema-dir ../schemas
# Options a deploy would reject or ignore, though Pulumi's binder accepts them.
#
# A resource's `provider` must be a provider of its own package. Another resource is an
# error (the SDKs fail at deploy); another package's provider is a warning (the SDKs keep
# it for the resource's children only). A component takes any package's provider.
resource kubeProvider "pulumi:providers:kube" {}

resource tokProvider "pulumi:providers:tok" {}

resource tokProviders "pulumi:providers:tok" {
  options {
    range = 2
  }
}

resource thing "tok:index/thing:Thing" {}

resource right "kube:apps:Deployment" {
  options {
    provider = kubeProvider
  }
}

resource otherPackage "kube:apps:Deployment" {
  options {
    provider = tokProvider
  }
}

resource ranged "kube:apps:Deployment" {
  options {
    provider = tokProviders[1]
  }
}

resource notAProvider "kube:apps:Deployment" {
  options {
    provider = thing
  }
}

resource platform "kube:index:Platform" {
  name = "platform"
  options {
    provider = tokProvider
  }
}

# A provider that nothing names is a warning: the resources meant for it run against the
# default provider. Naming it in an invoke's options or a component's `providers` uses it.
resource forgotten "pulumi:providers:kube" {}

resource usesDefault "kube:apps:Deployment" {}

# A provider named in quotes is an error at the quotes, not also a provider no resource uses.
resource quotedProvider "pulumi:providers:kube" {}

resource quotesItsProvider "kube:apps:Deployment" {
  options {
    provider = "quotedProvider"
  }
}

# `provider` takes one provider, `providers` a list or map of them: each written for the
# other is an error (the SDKs fail at deploy, or drop the providers).
resource providerMap "kube:apps:Deployment" {
  options {
    provider = { kube = kubeProvider }
  }
}

resource oneProviders "kube:apps:Deployment" {
  options {
    providers = kubeProvider
  }
}

# A misspelt provider is one error, with its did-you-mean: the provider is not also unused.
resource misspeltProvider "pulumi:providers:kube" {}

resource namesItMisspelt "kube:apps:Deployment" {
  options {
    provider = misspeltProvidr
  }
}

# With no resource of its package, a provider is declared for its own sake: no warning.
resource ownSake "pulumi:providers:enums" {}

resource zoneProvider "pulumi:providers:kube" {}

zone = invoke("kube:index:getZone", { region = "north" }, { provider = zoneProvider })

# A function's result is data, not a resource to wait for or to parent to.
resource afterZone "kube:apps:Deployment" {
  options {
    provider  = kubeProvider
    dependsOn = [zone]
    parent    = invoke("kube:index:getZone", { region = "south" })
  }
}

resource platformProvider "pulumi:providers:kube" {}

resource platformWithProviders "kube:index:Platform" {
  name = "platform"
  options {
    providers = [platformProvider]
  }
}

# The engine parses `version` as semver and each custom timeout as a Go duration.
resource pinned "kube:apps:Deployment" {
  options {
    version = 1.0
  }
}

resource prefixed "kube:apps:Deployment" {
  options {
    version = "v1.0.0"
  }
}

# Checked against the package's schema all the same: no other schema is looked for.
resource unparsed "kube:apps:Deployment" {
  options {
    version = "latest"
  }
}

resource slow "kube:apps:Deployment" {
  options {
    customTimeouts = {
      create = 10
      update = "5 m"
      delete = "1h30m"
      read   = ""
    }
  }
}

# A string alias is a URN; a `range` counts whole resources.
resource renamed "kube:apps:Deployment" {
  options {
    aliases = ["old-name", { name = "older" }, "urn:pulumi:dev::app::kube:apps:Deployment::old"]
  }
}

resource partly "kube:apps:Deployment" {
  options {
    range = 2.5
  }
}

resource impatient "kube:apps:Deployment" {
  options {
    customTimeouts = "10m"
  }
}

# An invoke's options are checked as a resource's: its provider must be a provider of the
# function's package (the engine asks that provider for the function), its version semver.
# Options not written as an object are dropped by the converted program (a warning).
otherZone = invoke("kube:index:getZone", { region = "north" }, { provider = tokProvider })
notProvider = invoke("kube:index:getZone", { region = "north" }, { provider = thing })
vZone = invoke("kube:index:getZone", { region = "north" }, { version = "v1.0.0" })
zoneOptions = { provider = zoneProvider }
droppedZone = invoke("kube:index:getZone", { region = "north" }, zoneOptions)

# Keys the option objects do not have are dropped at deploy (Pulumi's runtime and SDKs
# read only theirs): an alias's `parentUrn` is `parent`, a timeout `created` is `create`.
resource movedUnder "kube:apps:Deployment" {
  options {
    aliases        = [{ parentUrn = renamed.urn }]
    customTimeouts = { created = "5m" }
  }
}

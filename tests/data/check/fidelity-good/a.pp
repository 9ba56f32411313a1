# pcl-check-args: --schema-dir ../schemas --schema-dir ../programs/schemas
# Programs Pulumi's binder accepts, and so do we.
package {
  baseProviderName    = "tok"
  baseProviderVersion = "1.2.3"
}

hook resource "announce" {
  command = ["echo", args.name]
}

hook error "retry" {
  command = ["echo", args.urn]
}

resource thing "tok:index/thing:Thing" {
  size = 1
  options {
    hooks = {
      beforeCreate = [announce]
      onError      = [retry]
    }
  }
}

resource things "tok:index/thing:Thing" {
  size = 2
  options {
    range = 2
  }
}

holder = { inner = thing }

thingType  = pulumiResourceType(thing)
thingName  = pulumiResourceName(things[0])
viaLocal   = pulumiResourceType(holder.inner)
grown      = call(thing, "grow", { by = 1 })
grownIndex = call(things[1], "grow", { by = 2 })
grownLocal = call(holder.inner, "grow", { by = 3 })

counted      = invoke("tok:index/count:count", 1, 2)
countedFirst = invoke("tok:index/count:count", 1)
wholeOutput  = invoke("tok:index/getThing:getThing", secret({ id = "a" }))

# pcl-check-args: --schema-dir ../schemas --schema-dir ../programs/schemas
# What Pulumi's binder rejects, one mistake at a time.
package {
  baseProviderName    = "tok"
  baseProviderVersion = "1.2.3"
}

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
      beforeCreat = [announce]
      onError     = [announce]
      afterCreate = [retry]
      afterDelete = announce
    }
  }
}

resource other "tok:index/thing:Thing" {
  size = 1
  options {
    hooks = [announce]
  }
}

resource things "tok:index/thing:Thing" {
  size = 2
  options {
    range = 2
  }
}

notAResource = pulumiResourceType({ urn = thing.urn, id = thing.id })
aList        = pulumiResourceName(things)
aProperty    = call(thing.size, "grow", { by = 1 })

tooMany    = invoke("tok:index/count:count", 1, 2, {}, 4)
objectForm = invoke("tok:index/count:count", { a = 1, b = 2 })

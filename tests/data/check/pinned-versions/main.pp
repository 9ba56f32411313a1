# pcl-check-args: --schema-dir ../schemas/versions
# A `package` block decides the version (1.0.0), even below what a resource asks for; a
# resource asking for another version gets a note (it deploys with the version it asks
# for, and a program may use two on purpose).
package {
  baseProviderName    = "kube"
  baseProviderVersion = "1.0.0"
}

resource pod "kube:index:Pod" {
  options {
    version = "2.0.0"
  }
}

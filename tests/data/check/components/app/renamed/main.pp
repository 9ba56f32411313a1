# Names given with `__logicalName` are the ones a parent uses, as in Go's binder.
config "host" "string" {
  __logicalName = "dbHost"
}

output "url" {
  __logicalName = "connectionUrl"
  value         = "postgres://${host}"
}

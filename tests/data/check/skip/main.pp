# pcl-check-args: --skip-resource-typecheck
# Under --skip-resource-typecheck, resources without a schema are `dynamic`, with a warning.
resource "db" "postgres:index:Database" {
  name = "app"
}

output "dbName" {
  value = db.name
}

site = invoke("postgres:index:getServer", {})

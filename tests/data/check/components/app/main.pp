# Components: inputs are the sub-program's configs, attributes its outputs.
component "net" "./network" {
  cidr = "10.0.0.0/16"
}

component "looped" "./loop" {
}

component "self" "." {
}

output "subnet" {
  value = net.subnetId
}

component "gone" "./missing" {
}

component "mistyped" "./netwrk" {
  cidr = "10.1.0.0/16"
}

# A parent sets a component's inputs and reads its outputs by their logical names.
component "database" "./renamed" {
  dbHost = "db.internal"
}

output "databaseUrl" {
  value = database.connectionUrl
}

component "databaseByName" "./renamed" {
  host = "db.internal"
}

# A component ranged over a map is keyed by its keys, as a resource is: `[0]` reads a key.
component "databases" "./renamed" {
  dbHost = range.value
  options {
    range = { primary = "db-1.internal", replica = "db-2.internal" }
  }
}

output "firstDatabase" {
  value = databases[0].connectionUrl
}

# Two components may read each other's outputs (Pulumi resolves them lazily): what they
# read is still checked against the outputs of their programs.
component "front" "./renamed" {
  dbHost = back.connectionUrl
}

component "back" "./renamed" {
  dbHost = front.connectionUrll
}

output "frontUrl" {
  value = front.conectionUrl
}

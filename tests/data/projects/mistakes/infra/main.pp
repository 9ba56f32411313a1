# The shop project's program.

config "port" "int" {}

config "debug" "bool" {
  default = false
}

config "ratio" "number" {
  default = 1
}

config "dbPassword" "string" {
  secret = true
}

config "zones" "list(string)" {
  default = []
}

config "sizes" "map(int)" {
  default = {}
}

config "release" "string" {
  default = "1.0"
}

config "database" "object({host = string, port = int})" {
  default = { host = "localhost", port = 5432 }
}

resource "site" "hosting:index:Site" {
  name     = "shop-${port}-${release}-${database.host}"
  replicas = sizes["web"]
  public   = debug
  domains  = zones
}

# Files the program reads when it runs, from its directory: one is not there.
banner = readFile("./banner.txt")
terms  = readFile("./terms.txt")
# Made by the build before a deploy: the warning is silenced.
# pcl-ignore PCL5011
notes = readFile("./build/notes.txt")
# pcl-ignore PCL5011
welcome = readFile("./banner.txt")

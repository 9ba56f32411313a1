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

resource "site" "hosting:index:Site" {
  name     = "shop-${port}"
  replicas = sizes["web"]
  public   = debug
  domains  = zones
}

# Files the program reads when it runs, from its directory: one is not there.
banner = readFile("./banner.txt")
terms  = readFile("./terms.txt")

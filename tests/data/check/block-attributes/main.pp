# A misspelt `default` would make the config silently required.
config port "int" {
  defualt = 8080
}

config name "string" {
  description = "the site's name"
  colour      = "blue"
}

output url {
  valeu = "http://example.com:${port}"
}

# An output is secret when its value is.
output token {
  value  = "abc"
  secret = true
}

# An output's description documents it (Pulumi does not read it).
output site {
  value       = "http://example.com"
  description = "the site's address"
}

pulumi {
  requiredVersionRange = ">=3.0.0"
  minVersion           = "3.0.0"
}

package "web" {
  baseProviderName    = "web"
  baseProviderVersoin = "1.0.0"
  parameterization {
    name    = "sub"
    version = "1.0.0"
    value   = "e30="
    extra   = "x"
  }
}

resouce "bucket" "web:index:Bucket" {
  name = name
}

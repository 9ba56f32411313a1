tier = "%{ if env == "prod" }gold%{ else if env == "dev" }silver%{ else }bronze%{ endif }"

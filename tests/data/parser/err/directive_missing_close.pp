a = "%{ if x y }yes%{ endif }"

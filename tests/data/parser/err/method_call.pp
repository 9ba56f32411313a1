# Method calls of other languages: one error each, the whole call an error node.
a = site.endpoint.apply(e => "http://${e}")
b = names.join(",")
c = { port = port.result.toString() }
d = x.y (1)

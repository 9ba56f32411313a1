a = x.
b = x.[0]

a = [for v in xs: v v]
b = {for k, v in m: k => v v}
c = {for k, v in m: k v}

a = [for v in xs: v]
b = [for i, v in xs: v * 2 if i > 0]
c = {for k, v in m: k => v}
d = {for k, v in m: v => k... if v != null}
e = [
  for v in xs:
  v
]

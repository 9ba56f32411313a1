a = x
b = f()
c = g(1, [2], xs...)
d = ns::h(1)
e = invoke("pkg:index:fn", {
  a = 1
})

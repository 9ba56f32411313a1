xs = [1]
a = xs[0
b = 1

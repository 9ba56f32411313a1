a = { for = 1 }
b = [for]
c = { "for" = 1, (for) = 2 }
d = [for, 1]

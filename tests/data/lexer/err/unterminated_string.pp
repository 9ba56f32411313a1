a = "no end
b = 2

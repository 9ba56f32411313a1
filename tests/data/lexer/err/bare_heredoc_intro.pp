a = b << c

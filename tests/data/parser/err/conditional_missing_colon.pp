a = x ? y

# Formatting aligns the equals signs below.
a= 1
bbb = 2

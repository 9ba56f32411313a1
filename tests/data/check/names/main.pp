# Names: unknown names get a "did you mean"; `null` cannot be redeclared; a body naming
# more than sixteen others finds them as one naming a few does.
config "siteName" "string" {}

title = "${sitename}!"
other = nothingLikeIt
null = 1

label = [for item in ["a"] : "${item}-${itme}"]

n1 = 1
n2 = 2
n3 = 3
n4 = 4
n5 = 5
n6 = 6
n7 = 7
n8 = 8
n9 = 9
n10 = 10
n11 = 11
n12 = 12
n13 = 13
n14 = 14
n15 = 15
n16 = 16
n17 = 17
many = [n1, n2, n3, n4, n5, n6, n7, n8, n9, n10, n11, n12, n13, n14, n15, n16, n17, siteNme]
few = [n1, n2, siteNme]

# A name in another case is one slip, however many letters differ.
bucketName = "logs"
shouted    = BUCKETNAME

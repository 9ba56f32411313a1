# Non-literal keys are typed as Go's IndexExpression types them.
config n "int" {}
config key "string" {}
config maybe "list(string)" {
  default = null
}

b     = 2
aList = [1, 2.5, 3]
names = ["a", "b"]
ports = { http = 80, https = 443 }

byLocal   = aList[b]
byConfig  = aList[n]
byString  = names[key]
fromMap   = ports[key]
optional  = maybe[n]
eventual  = names[secret(n)]
outOfRange = aList[5]
empty      = [][0]
notIndexable = n[b]

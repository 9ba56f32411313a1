# Names: unknown names get a "did you mean"; `null` cannot be redeclared.
config "siteName" "string" {}

title = "${sitename}!"
other = nothingLikeIt
null = 1

label = [for item in ["a"] : "${item}-${itme}"]

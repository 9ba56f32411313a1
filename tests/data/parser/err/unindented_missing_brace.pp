resource a "pkg:index:Thing" {
value = true
tags = {
a = 1
}
options {
dependsOn = [b]
}

resource b "pkg:index:Thing" {
value = false
}

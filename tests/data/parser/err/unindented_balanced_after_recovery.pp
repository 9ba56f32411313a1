resource a "pkg:index:Thing" {
list = [
1,
2
]
}

output x {
value = a.list

resource "r" "t" {
options {
dependsOn = [
a,
b
]
}
value = {
nested = {
deeper = [
{ x = 1 },
{
y = 2
}
]
}
}
call = merge(
{ a = 1 },
{ b = 2 })
}

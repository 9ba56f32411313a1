# One error per cause: an unknown property is not also "cannot traverse".
config site "object({templat = string})" {
  default = null
}
config maybe "object({name = string})" {
  nullable = true
}
a = maybe.nmae
b = site.template.foo
resource b1 "web:index:Bucket" {
  name = "x"
  website = {
    indexDocument = "i"
  }
}
c = b1.website

# pcl-check-args: --lenient
# One mistake for each of Pulumi's binder options; which of them are errors depends on
# the leniency flags on the first line.
resource site "web:index:Bucket" {
  versioning = "sometimes"
  tags       = { owner = owner }
}

resource nameless "web:index:Bucket" {
}

# A required input set to null is as good as left out.
resource explicitNull "web:index:Bucket" {
  name = null
}

region  = invoke("web:index:getRegoin", { bucket = site.name })
endpoint = site.websiteEndpoitn
letters = [for c in "abc" : c]

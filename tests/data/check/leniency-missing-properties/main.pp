# pcl-check-args: --allow-missing-properties
# One mistake for each of Pulumi's binder options; which of them are errors depends on
# the leniency flags on the first line.
resource site "web:index:Bucket" {
  versioning = "sometimes"
  tags       = { owner = owner }
}

resource nameless "web:index:Bucket" {
}

region  = invoke("web:index:getRegoin", { bucket = site.name })
endpoint = site.websiteEndpoitn
letters = [for c in "abc" : c]

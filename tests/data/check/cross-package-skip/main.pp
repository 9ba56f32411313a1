# pcl-check-args: --schema-dir ../schemas --skip-resource-typecheck --skip-invoke-typecheck
# Types of other packages: `other` v1.5.0 is on no source, so its types are read from
# 2.0.0 (a warning); `aws` is on no source at all, so values of its types are not checked
# (one error for the package in this file, at the first such value).
resource app "xref:index:Service" {
  network = { cidrBlock = "10.0.0.0/16" }
  shared  = { note = 42, extra = true }
}

resource other "xref:index:Service" {
  network = { cidrBlock = "10.1.0.0/16" }
}

zone = invoke("xref:index:getZone", { region = "eu", subnet = { id = "s-1" } })

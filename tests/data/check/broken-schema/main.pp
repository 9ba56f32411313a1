# pcl-check-args: --schema-dir broken-schema
# A resource whose schema entry is broken: the problem is reported where it is used.
resource "r" "broken:index:Broken" {
  a = "x"
}

resource "fine" "broken:index:Fine" {
  a = "x"
}

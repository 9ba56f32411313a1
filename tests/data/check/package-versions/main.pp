# pcl-check-args: --schema-dir ../schemas/versions
# One version per package per program: the highest any resource asks for (2.0.0); the
# resource that asks for 1.0.0 is told which one it is checked against.
resource old "kube:index:Pod" {
  options {
    version = "1.0.0"
  }
}

resource new "kube:index:Pod" {
  options {
    version = "2.0.0"
  }
}

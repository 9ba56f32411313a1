# pcl-check-args: --schema-dir ../schemas/habits
# Properties written one level too high: each note says where it belongs.
resource web "net:index:Container" {
  image = "nginx"
  cpu   = "500m"
  value = "debug"
}

resource pod "net:index:Pod" {
  containers = [{
    image         = "nginx"
    containerPort = 80
  }]
}

# One object where a list of them is expected: wrapped by the fix, and checked as the
# element it will be.
resource single "net:index:Pod" {
  containers = {
    image = "nginx"
    ports = [{ containerPort = "http" }]
  }
}

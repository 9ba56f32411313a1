# A program whose component has a mistake of its own: checking the program checks the
# component's program too, and reports the mistake in the component's file.
component "site" "./site" {
  name = "docs"
}

output "endpoint" {
  value = site.endpoint
}

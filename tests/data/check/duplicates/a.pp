# The same name in two files of one program, and twice in one file.
bucketName = "site"

output "url" {
  value = bucketName
}

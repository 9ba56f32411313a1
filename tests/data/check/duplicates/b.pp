bucketName = "other"

output "url" {
  value = "again"
}

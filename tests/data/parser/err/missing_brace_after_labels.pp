resource "a" "b"
x = 1
resource "a"
{
  x = 1
}
ok = 1

resource "r" "t" {}
resource "s" "t" { a = 1 }
resource   "u"   "t"   {   }
config "c" "int" {default=1}
output o { value = 1 }

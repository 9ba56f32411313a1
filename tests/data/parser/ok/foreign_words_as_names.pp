# Names spelt like other languages' words, used as PCL names: no error.
xs     = [true]
m      = { a = 1 }
a      = [for x in xs : new if x]
b      = { for k, await in m : k => await if await > 0 }
await  = [1]
c      = await[0]
typeof = { a = 1 }
d      = typeof["a"]
import = 1
from   = { import = "x", class = "y", new = "z" }

# Calls: unknown functions, argument counts and shapes, invoke.
upper = toUpper("a")
joined = join(",")
toomany = length([1], [2])
first = element("abc", 0)
tokenName = "web:index:getRegion"
notLiteral = invoke(tokenName, {})
region = invoke("web:index:getRegin", { bucket = "b" })
noArgs = invoke("web:index:getRegion", { bucketName = "b" })
zones = invoke("web:index:getRegion", { bucket = "b" }).zones
sum = max(1, "two", [3])

# Calls of the SDKs' and their languages' functions, of resource classes (with and without `new`), and Python's prefixed strings.
a = pulumi.String("x")
b = JSON.stringify({ a = 1 })
c = aws.s3.Bucket.get("existing", "id")
d = aws.getAvailabilityZones()
e = aws.ec2.getAmi({})
f = config.requireNumber("n")
g = names.join(",")
h = pulumi.all([a, b])
i = Output.all(a, b).apply(x => x)
a = f"logs-{env}"
b = r"raw"
x = ref.getOutput("vpcId")
y = refs[0].getOutput("x")
z = pulumi.Output.concat("a", b)
w = lookup(m, "k").getValue()
e = random.RandomPet("pet", { length = 2 })
f = env.toUpperCase()
n = new aws.s3.Bucket("b", { acl = "private" })
o = new pulumi.asset.FileAsset("./index.html")
p = new InputMap<string> { { "Name", "web" } }
q = new pulumi.StackReference("acme/net/prod")
r = new Thing()
endsWithNew = new
nextLine = 1
k = new k8s.apps.v1.Deployment("d", {})
c = new pulumi.Config()
p = new aws.Provider("p", {})

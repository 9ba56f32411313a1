# Other languages' operators and statements: one error each, saying what PCL writes.
a = env === "dev"
b = env !== "prod" ? 1 : 2
c = name ?? "default"
d = site.website?.indexDocument
e = pet.id as string
f = x is None
g = isProd and keep
h = site.endpoint!
pulumi.export("bucketName", site.id)
ctx.Export("x", 1)
output url = site.websiteEndpoint
const bucket = new aws.s3.Bucket("b")
for (const az of zones) {
  x = 1
}
if (isProd) {
  y = 2
}
value = ["subnet-${z}" for z in zones]
sliced = xs[0:2]
tail = xs[1:]
spread = { ...common, b = 2 }
joined = [...xs, 2]
called = max(...xs)
import pulumi
import * as aws from "@pulumi/aws";
from pulumi_aws import s3
using Pulumi;
import {
  to = x
}
class WebServer extends pulumi.ComponentResource {
  constructor(name) {}
}
def make_bucket(name):
function f(x) { return x }
after = 1
negated = not enabled && not other
awaited = await invoke("x:index:f", {})
goList = pulumi.StringArray{"a", "b"}
goArgs = &s3.BucketArgs{
  Bucket: pulumi.String("b"),
}
goStruct = &Settings{Name: "x"}
goPointer = &name

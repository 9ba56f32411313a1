# pcl-check-args: --schema-dir ../schemas/habits --max-errors 0
# Habits carried over from Terraform and Pulumi YAML: each message says what PCL writes.
config prefix "string" {
  default = "app"
}

config size "integer" {
  default = 2
}

config names "List<String>" {
  default = []
}

config password "string" {
  sensitive = true
}

config zone {
  type = string
}

config region "string" {
  default {
    value = "eu"
  }
}

config replicas "int" {
  default = 1
  validation {
    condition = true
  }
}

variable "legacy" {
  default = 1
}

variable "typed" {
  type = string
}

locals {
  legacyLocal = 2
}

provider "net" {
  region = "eu"
}

resource first "net:index:Pet" {
  count  = 3
  prefix = "${var.prefix}-${count.index}"
  length = local.petLength
}

resource second "net:index:Pet" {
  depends_on = [first]
  dependsOn  = [first]
  length     = each.value
  prefix     = "${terraform.workspace}-${pulumi.stack}"
  options {
    prevent_destroy = true
  }
  lifecycle {
    ignore_changes = [length]
  }
}

resource third "net:index:Pet" {
  options = {
    protect = true
  }
  prefix = jsonencode({ a = 1 })
  length = length(merge({}, {}))
}

resource network "net:index:Network" {
  name = format("%s-net", prefix)
  options = {
    dependsOn = [first]
  }
}

resource "net_pet" "fourth" {
}

resource "net:index:Pet" "fifth" {
}

resource keyed "net:index:Pet" {
  options {
    range = { a = 1, b = 2 }
  }
  length = range.value
}

output keyedNames {
  value     = keyed[*].name
  sensitive = true
}

output modules {
  value = "${module.vpc.id}-${data.aws_ami.ubuntu.id}-${self.id}-${path.module}"
  precondition {
    condition = true
  }
}

# Pulumi YAML's function call as a key: nothing is called.
zoneInfo = {
  "fn::invoke" = {
    function = "net:index:getZone"
  }
}

# Terraform settings PCL has no option of the same meaning for.
resource sixth "net:index:Pet" {
  create_before_destroy = true
  options {
    replace_triggered_by = [first]
  }
  timeouts {
    create = "5m"
  }
  dynamic "tag" {
    content {}
  }
  provisioner "local-exec" {
    command = "echo"
  }
}

# JSON documents keep their own keys: CloudFormation's `Fn::`, ESC's `fn::secret`.
template = toJSON({ Value = { "Fn::GetAtt" = ["Role", "Arn"] }, pw = { "fn::secret" = "x" } })
cloudFormation = { "Fn::GetAtt" = ["Role", "Arn"] }

# An input named `options` given settings that are not resource options: no warning.
resource mount "net:index:Network" {
  name    = "kv"
  options = { version = "2" }
}

# Another stack's outputs: a resource in PCL, not a function.
otherStack = stackReference("org/project/dev")

# A YAML habit: text left unquoted is a name.
resource seventh "net:index:Pet" {
  prefix = web
}

# Without the package's schema the inputs are unknown, but Terraform's settings still are.
resource noSchema "nope:index:Thing" {
  count = 2
}

# Names the Terraform blocks above declare are not PCL's.
resource eighth "net:index:Pet" {
  prefix = legacy
  length = legacyLocal
}

# Docker Compose's environment map, where the schema takes `{ name, value }` entries.
resource server "net:index:Container" {
  image = "nginx"
  env    = { LOG_LEVEL = "debug", PORT = "80" }
  labels = { team = "web" }
}

# `count.index` carried over as `range.index`.
resource counted "net:index:Pet" {
  options {
    range = 2
  }
  prefix = "pet-${range.index}"
}

resource listed "net:index:Pet" {
  options {
    range = ["a", "b"]
  }
  prefix = "pet-${range.index}-${range.value}"
}

# In a ranged resource, `count.index` and `each.value` are fixed to the range variable.
resource counted "net:index:Pet" {
  length = 2
  prefix = "pet-${count.index}-${each.value}"
  options {
    range = 2
  }
}

# Terraform's `TYPE.NAME` reference to a resource, and a resource read as a list.
output firstName {
  value = random_pet.first.name
}

output firstId {
  value = first[0].id
}

# Terraform's `for_each` in the options: reported there, not also the `range` it defines.
resource eachPet "net:index:Pet" {
  prefix = range.value
  options {
    for_each = ["a", "b"]
  }
}

# A snake_case name before a declared name that is no resource is a misspelt name.
app_settings = { name = "x" }
settingName  = app_setting.name

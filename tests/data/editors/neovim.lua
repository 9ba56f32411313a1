-- Drives `pcl lsp --stdio` from a real Neovim (headless), as `cargo xtask editor-test`
-- runs it: xtask puts the README's Neovim snippet (with only `schemaPath` replaced)
-- before this file, puts the `pcl` under test first on PATH, and reads the outcome from
-- the lines printed: `ok NAME`, `not ok NAME: why`, then `N passed, N failed`.
local program = vim.env.PCL_EDITOR_PROGRAM
local passed, failed = 0, 0

local function report(name, ok, why)
  if ok then
    passed = passed + 1
    print("ok " .. name)
  else
    failed = failed + 1
    print("not ok " .. name .. ": " .. tostring(why))
  end
end

-- Runs `body` as one test; an error in it fails the test.
local function test(name, body)
  local ok, err = pcall(body)
  if ok then
    report(name, true)
  else
    report(name, false, err)
  end
end

local function request(buf, method, params)
  local responses = vim.lsp.buf_request_sync(buf, method, params, 10000)
  assert(responses, method .. " got no answer in 10 s")
  for _, response in pairs(responses) do
    assert(not response.err, method .. " failed: " .. vim.inspect(response.err))
    return response.result
  end
  error(method .. ": no client answered")
end

local function at(buf, line, character)
  return {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = line, character = character },
  }
end

vim.cmd.edit(program .. "/main.pp")
local buf = vim.api.nvim_get_current_buf()

test("the server attaches", function()
  assert(vim.bo[buf].filetype == "pcl", "filetype is " .. vim.bo[buf].filetype)
  local attached = vim.wait(10000, function()
    return #vim.lsp.get_clients({ bufnr = buf }) > 0
  end, 50)
  assert(attached, "no client attached")
end)

test("diagnostics", function()
  local found = vim.wait(10000, function()
    return #vim.diagnostic.get(buf) > 0
  end, 50)
  assert(found, "no diagnostics in 10 s")
  local diagnostics = vim.diagnostic.get(buf)
  assert(#diagnostics == 1, "expected 1 diagnostic, got " .. vim.inspect(diagnostics))
  local d = diagnostics[1]
  assert(d.lnum == 11 and d.col == 11, "at " .. d.lnum .. ":" .. d.col)
  assert(d.code == "PCL4001", "code " .. tostring(d.code))
  assert(d.message:find("sitename", 1, true), d.message)
end)

test("hover", function()
  -- On `web:index:Bucket`.
  local result = request(buf, "textDocument/hover", at(buf, 6, 20))
  assert(result and result.contents, "no hover")
  local text = vim.inspect(result.contents)
  assert(text:find("web:index:Bucket", 1, true), text)
end)

test("definition", function()
  -- On `site` in `site.websiteEndpoint`.
  local result = request(buf, "textDocument/definition", at(buf, 10, 12))
  assert(result, "no definition")
  local location = result[1] or result
  local range = location.range or location.targetSelectionRange
  assert(range.start.line == 6, "goes to line " .. range.start.line)
end)

test("completion", function()
  -- After `site.` in `endpoint = site.websiteEndpoint`.
  local result = request(buf, "textDocument/completion", at(buf, 10, 16))
  local items = result and (result.items or result) or {}
  local labels = {}
  for _, item in ipairs(items) do
    labels[item.label] = true
  end
  assert(labels.websiteEndpoint, "labels: " .. vim.inspect(vim.tbl_keys(labels)))
end)

test("rename", function()
  -- `siteName` (the config) to `title`: its declaration and its use.
  local params = at(buf, 2, 10)
  params.newName = "title"
  local result = request(buf, "textDocument/rename", params)
  assert(result, "no edit")
  local edits = 0
  for _, changes in pairs(result.changes or {}) do
    edits = edits + #changes
  end
  for _, change in ipairs(result.documentChanges or {}) do
    edits = edits + #(change.edits or {})
  end
  assert(edits == 2, "expected 2 edits, got " .. vim.inspect(result))
end)

test("formatting", function()
  vim.cmd.edit(program .. "/unformatted.pp")
  local other = vim.api.nvim_get_current_buf()
  vim.wait(10000, function()
    return #vim.lsp.get_clients({ bufnr = other }) > 0
  end, 50)
  local result = request(other, "textDocument/formatting", {
    textDocument = { uri = vim.uri_from_bufnr(other) },
    options = { tabSize = 2, insertSpaces = true },
  })
  assert(result and #result > 0, "no formatting edits")
  vim.lsp.util.apply_text_edits(result, other, "utf-8")
  local line = vim.api.nvim_buf_get_lines(other, 1, 2, false)[1]
  assert(line == "a   = 1", "formatted line is '" .. line .. "'")
end)

test("stack file", function()
  vim.cmd.edit(program .. "/../Pulumi.dev.yaml")
  local stack = vim.api.nvim_get_current_buf()
  local found = vim.wait(10000, function()
    return #vim.diagnostic.get(stack) > 0
  end, 50)
  assert(found, "no diagnostics for the stack file in 10 s")
  local d = vim.diagnostic.get(stack)[1]
  assert(d.lnum == 1, "at line " .. d.lnum)
  assert(d.message:find("siteNmae", 1, true), d.message)
end)

test("one server for the project", function()
  vim.cmd.edit(program .. "/parts/part.pp")
  local part = vim.api.nvim_get_current_buf()
  local attached = vim.wait(10000, function()
    return #vim.lsp.get_clients({ bufnr = part }) > 0
  end, 50)
  assert(attached, "no client attached to parts/part.pp")
  local ours = vim.lsp.get_clients({ bufnr = part })[1].id
  local mains = vim.lsp.get_clients({ bufnr = buf })[1].id
  assert(ours == mains, "a second server for parts/: " .. ours .. " and " .. mains)
end)

print(passed .. " passed, " .. failed .. " failed")
vim.cmd(failed == 0 and "qall!" or "cquit! 1")

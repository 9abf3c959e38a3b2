-- Run by test/editors/neovim.test.ts inside a headless Neovim started with the init.lua of
-- docs/editors.md (`-c 'luafile neovim-driver.lua'`): waits for Shardwise's diagnostics in the file
-- Neovim opened, asks for a hover there, opens the plan's other files one by one, and writes what it
-- saw as JSON to the plan's `out`. Every wait is bounded, and it quits whatever happens.
-- Written for Neovim 0.7 and later (no vim.fs, no vim.lsp.get_clients before 0.10).

local plan = vim.fn.json_decode(table.concat(vim.fn.readfile(vim.env.SHARDWISE_NVIM_PLAN), '\n'))
local result = { version = tostring(vim.version().major .. '.' .. vim.version().minor .. '.' .. vim.version().patch), files = {} }

local function all_clients()
  local list = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  local out = {}
  for _, c in ipairs(list) do
    table.insert(out, { id = c.id, name = c.name, root_dir = c.config.root_dir })
  end
  return out
end

local function clients_of(buf)
  local ids = {}
  for _, c in ipairs(all_clients()) do
    if vim.lsp.buf_is_attached(buf, c.id) then
      table.insert(ids, c.id)
    end
  end
  return ids
end

local function shardwise_diagnostics(buf)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.source == 'shardwise' then
      table.insert(out, { line = d.lnum, col = d.col, code = d.code, message = d.message })
    end
  end
  return out
end

local function hover_texts(buf, position)
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = position }
  local answers = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, plan.requestMs) or {}
  local texts = {}
  for _, answer in pairs(answers) do
    local contents = answer.result and answer.result.contents
    if type(contents) == 'string' then
      table.insert(texts, contents)
    elseif type(contents) == 'table' and contents.value then
      table.insert(texts, contents.value)
    elseif type(contents) == 'table' then
      for _, part in ipairs(contents) do
        table.insert(texts, type(part) == 'table' and part.value or part)
      end
    end
  end
  return texts
end

-- The buffer's Shardwise diagnostics once they arrive, and its clients then (a client is listed
-- once initialized). After a file that got no client the others are not waited for.
local wait_ms = plan.waitMs
local function look_at(buf, path)
  vim.wait(wait_ms, function()
    return #shardwise_diagnostics(buf) > 0
  end, 50)
  local seen = { path = path, filetype = vim.bo[buf].filetype, clients = clients_of(buf), diagnostics = shardwise_diagnostics(buf) }
  if #seen.clients == 0 then
    wait_ms = 0
  end
  return seen
end

local ok, err = xpcall(function()
  local first = look_at(vim.api.nvim_get_current_buf(), vim.api.nvim_buf_get_name(0))
  if #first.clients > 0 then
    first.hover = hover_texts(0, plan.hover)
  end
  table.insert(result.files, first)
  for _, path in ipairs(plan.others) do
    vim.cmd('edit ' .. vim.fn.fnameescape(path))
    table.insert(result.files, look_at(vim.api.nvim_get_current_buf(), path))
  end
  result.clients = all_clients()
end, debug.traceback)
if not ok then
  result.error = err
end
vim.fn.writefile({ vim.fn.json_encode(result) }, plan.out)
vim.cmd('qall!')

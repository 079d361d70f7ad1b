-- A Neovim session driven by tests/test_neovim.py: Neovim's built-in LSP
-- client (0.7+) talks to `affine-lsp serve` the way a user's setup does.
--   nvim --headless --clean -u NONE -c "luafile session.lua"
-- Input (environment): AFFINE_NVIM_FILE (the .mlir file), AFFINE_NVIM_CMD
-- (the server command, a JSON list), AFFINE_NVIM_HOVER and AFFINE_NVIM_FUSE
-- (text to put the cursor on: an access to hover, a loop to fuse; the
-- cursor goes AFFINE_NVIM_FUSE_DELTA characters into the latter),
-- AFFINE_NVIM_ERROR (text on the line of the file's error) and
-- AFFINE_NVIM_OUT (where the JSON report goes).
local out = { steps = {} }
local TIMEOUT = 60000

local function write_report()
  local f = assert(io.open(os.getenv("AFFINE_NVIM_OUT"), "w"))
  f:write(vim.fn.json_encode(out))
  f:close()
end

local function find(bufnr, needle)
  for lnum, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local col = string.find(line, needle, 1, true)
    if col then
      return lnum - 1, col - 1 -- 0-based, as LSP positions (the file is ASCII)
    end
  end
  error("not in the buffer: " .. needle)
end

local function main()
  out.nvim = vim.version()
  local file = os.getenv("AFFINE_NVIM_FILE")
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  local config = {
    name = "affine-lsp",
    cmd = vim.fn.json_decode(os.getenv("AFFINE_NVIM_CMD")),
    root_dir = vim.fn.fnamemodify(file, ":p:h"),
  }
  local client_id
  if vim.lsp.start then -- Neovim 0.8+
    client_id = vim.lsp.start(config)
  else -- Neovim 0.7
    client_id = vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(bufnr, client_id)
  end
  assert(client_id, "the client did not start")
  local client
  assert(
    vim.wait(TIMEOUT, function()
      client = vim.lsp.get_client_by_id(client_id)
      return client ~= nil and client.initialized == true
    end, 20),
    "the server did not initialize"
  )
  out.offset_encoding = client.offset_encoding
  table.insert(out.steps, "initialized")

  -- 1. The error diagnostic, published by the server.
  assert(
    vim.wait(TIMEOUT, function()
      return #vim.diagnostic.get(bufnr, { severity = vim.diagnostic.severity.ERROR }) > 0
    end, 20),
    "no error diagnostic arrived"
  )
  out.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(out.diagnostics, { lnum = d.lnum, col = d.col, severity = d.severity, message = d.message, source = d.source })
  end
  table.insert(out.steps, "diagnostics")

  -- 2. Hover an access: its dependences (the analysis may still be running
  -- at first: the hover says so, the next one has them).
  local hl, hc = find(bufnr, os.getenv("AFFINE_NVIM_HOVER"))
  vim.api.nvim_win_set_cursor(0, { hl + 1, hc })
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  out.hover_position = params.position
  for _ = 1, 400 do
    local res = client.request_sync("textDocument/hover", params, TIMEOUT, bufnr)
    assert(res and not res.err, "hover failed: " .. vim.inspect(res))
    local contents = res.result and res.result.contents
    out.hover = type(contents) == "table" and (contents.value or vim.inspect(contents)) or tostring(contents)
    if not (out.hover:find("still running", 1, true) or out.hover:find("not analysed yet", 1, true)) then
      break
    end
    vim.wait(50)
  end
  table.insert(out.steps, "hover")

  -- 3. The code actions on a loop header (what vim.lsp.buf.code_action
  -- requests), then "Fuse loops here" applied as it applies a chosen one.
  local fl, fc = find(bufnr, os.getenv("AFFINE_NVIM_FUSE"))
  local pos = { line = fl, character = fc + tonumber(os.getenv("AFFINE_NVIM_FUSE_DELTA") or "0") }
  local ca = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = pos, ["end"] = pos },
    context = { diagnostics = {} },
  }
  local res = client.request_sync("textDocument/codeAction", ca, TIMEOUT, bufnr)
  assert(res and not res.err, "codeAction failed: " .. vim.inspect(res))
  out.actions = {}
  local fuse
  for _, action in ipairs(res.result or {}) do
    table.insert(out.actions, action.title)
    if fuse == nil and action.title:find("Fuse loops here", 1, true) == 1 then
      fuse = action
    end
  end
  assert(fuse, "no 'Fuse loops here' action")
  if fuse.edit == nil and fuse.data ~= nil then
    -- A menu entry still being computed: its edit comes with codeAction/resolve,
    -- as vim.lsp.buf.code_action() asks for it.
    local resolved = client.request_sync("codeAction/resolve", fuse, TIMEOUT, bufnr)
    assert(resolved and not resolved.err, "codeAction/resolve failed: " .. vim.inspect(resolved))
    fuse = resolved.result
  end
  out.applied = fuse.title
  out.applied_kind = fuse.kind
  out.applied_disabled = fuse.disabled
  assert(fuse.edit, "the action has no edit")
  vim.lsp.util.apply_workspace_edit(fuse.edit, client.offset_encoding)
  out.after = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), "\n") .. "\n"
  out.modified = vim.bo[bufnr].modified
  table.insert(out.steps, "fused")

  -- 4. The server sees the edit: the deliberate error moves with the text.
  local el = find(bufnr, os.getenv("AFFINE_NVIM_ERROR"))
  out.error_line_after = el
  vim.wait(TIMEOUT, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr, { severity = vim.diagnostic.severity.ERROR })) do
      if d.lnum == el then
        return true
      end
    end
    return false
  end, 20)
  out.diagnostics_after = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr, { severity = vim.diagnostic.severity.ERROR })) do
    table.insert(out.diagnostics_after, { lnum = d.lnum, message = d.message })
  end
  table.insert(out.steps, "diagnostics after the edit")
  vim.lsp.stop_client(client_id)
  vim.wait(5000, function()
    return vim.lsp.client_is_stopped(client_id)
  end, 20)
end

local ok, err = xpcall(main, debug.traceback)
out.ok = ok
out.error = not ok and tostring(err) or nil
write_report()
vim.cmd("qa!")

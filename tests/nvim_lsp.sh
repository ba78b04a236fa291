#!/bin/sh
# alloclint server under a real client: Debian's Neovim, headless, opens a
# model file with its built-in LSP client and writes back the diagnostics it
# received. Skipped (77) without nvim.
# Usage: nvim_lsp.sh ALLOCLINT
set -u
bin=$1
command -v nvim >/dev/null 2>&1 || { echo "nvim not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/model.py" <<'PY'
import torch


def scale(x, t):
    out = torch.zeros(x.shape)
    torch.div(x, t, out=out)
    return out
PY
cat >"$tmp/init.lua" <<LUA
local out = "$tmp/diagnostics.txt"
vim.cmd("edit $tmp/model.py")
local buf = vim.api.nvim_get_current_buf()
local client = vim.lsp.start_client({
  name = "alloclint",
  cmd = { "$bin", "server" },
  root_dir = "$tmp",
})
vim.lsp.buf_attach_client(buf, client)
local ok = vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
local f = io.open(out, "w")
for _, d in ipairs(vim.diagnostic.get(buf)) do
  f:write(string.format("%d:%d %s %s %s\n", d.lnum + 1, d.col + 1, d.source or "?",
                        d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or "?",
                        d.message))
end
if not ok then f:write("timeout\n") end
f:close()
vim.lsp.stop_client(client)
vim.wait(2000, function() return vim.lsp.client_is_stopped(client) end, 50)
vim.cmd("qa!")
LUA
HOME=$tmp XDG_CONFIG_HOME=$tmp XDG_DATA_HOME=$tmp XDG_STATE_HOME=$tmp \
    timeout 60 nvim --headless --clean -u "$tmp/init.lua" >/dev/null 2>&1
cat "$tmp/diagnostics.txt" 2>/dev/null
want='5:11 alloclint AL101 `torch.zeros` buffer `out` is fully overwritten by `torch.div(out=...)` on line 6 before any read; the zero fill is wasted [safe fix]'
if [ "$(cat "$tmp/diagnostics.txt" 2>/dev/null)" = "$want" ]; then
    echo "nvim: ok"
    exit 0
fi
echo "FAIL: expected: $want"
exit 1

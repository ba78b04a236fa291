"""alloclint server over a pipe, as an editor drives it: initialize, open a
document with a finding (its project's configuration applies), read the
diagnostics, ask for code actions, apply the quickfix, see the diagnostics
clear, close, shut down. Usage: lsp.py ALLOCLINT"""
import json
import os
import subprocess
import sys
import tempfile

FINDING = ("import torch\n\n\ndef scale(x, t):\n"
           "    out = torch.zeros(x.shape)  # \u00e9t\u00e9 \U0001F600\n"
           "    torch.div(x, t, out=out)\n"
           "    return out\n")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


class Client:
    def __init__(self, binary, cwd):
        self.p = subprocess.Popen([binary, "server"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, cwd=cwd)
        self.next_id = 1

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def read(self):
        length = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise EOFError("server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.p.stdout.read(length))

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            msg = self.read()
            if msg.get("id") == rid:
                return msg

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self, uri):
        while True:
            msg = self.read()
            if msg.get("method") == "textDocument/publishDiagnostics" and \
                    msg["params"]["uri"] == uri:
                return msg["params"]["diagnostics"]


def apply_edits(text, edits):
    lines = text.split("\n")

    def offset(pos):
        line = lines[pos["line"]]
        units = 0
        i = 0
        while i < len(line) and units < pos["character"]:
            units += 2 if ord(line[i]) > 0xFFFF else 1
            i += 1
        return sum(len(l) + 1 for l in lines[:pos["line"]]) + i

    for e in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        a, b = offset(e["range"]["start"]), offset(e["range"]["end"])
        text = text[:a] + e["newText"] + text[b:]
    return text


def main():
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as root:
        os.mkdir(os.path.join(root, "tests"))
        with open(os.path.join(root, "pyproject.toml"), "w") as f:
            f.write('[tool.alloclint]\n[tool.alloclint.per-file-ignores]\n"tests/*" = ["AL101"]\n')
        c = Client(binary, root)
        init = c.request("initialize", {"processId": None, "rootUri": "file://" + root,
                                        "capabilities": {}})
        caps = init["result"]["capabilities"]
        check(caps["textDocumentSync"]["change"] == 1, "full document sync")
        check("quickfix" in caps["codeActionProvider"]["codeActionKinds"], "quickfix kind")
        c.notify("initialized", {})

        uri = "file://" + os.path.join(root, "model%20a.py")
        c.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": FINDING}})
        diags = c.diagnostics(uri)
        check(len(diags) == 1, "one diagnostic, got %d" % len(diags))
        d = diags[0]
        check(d["code"] == "AL101", "code AL101")
        check(d["range"] == {"start": {"line": 4, "character": 10},
                             "end": {"line": 4, "character": 30}}, "range %r" % d["range"])
        check(d["codeDescription"]["href"].endswith("/AL101.md"), "rule page link")
        check(os.path.exists(d["codeDescription"]["href"][len("file://"):]), "rule page exists")
        check("[safe fix]" in d["message"], "tier in the message")
        check(d["severity"] == 2, "warning severity")

        # The path's configuration: AL101 is ignored under tests/.
        turi = "file://" + os.path.join(root, "tests", "t.py")
        c.notify("textDocument/didOpen", {"textDocument": {
            "uri": turi, "languageId": "python", "version": 1, "text": FINDING}})
        check(c.diagnostics(turi) == [], "per-file-ignores honoured")

        actions = c.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": d["range"],
            "context": {"diagnostics": diags}})["result"]
        quick = [a for a in actions if a["kind"] == "quickfix"]
        check(len(quick) == 1 and quick[0]["isPreferred"], "one preferred quickfix")
        check(any(a["kind"] == "source.fixAll.alloclint" for a in actions), "fixAll action")
        edits = quick[0]["edit"]["changes"][uri]
        fixed = apply_edits(FINDING, edits)
        check("torch.empty(x.shape)" in fixed and "\U0001F600" in fixed, "the edit: %r" % fixed)
        again = c.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": d["range"],
            "context": {"diagnostics": diags}})["result"]
        check(again == actions, "the same actions when asked again")
        fix_all = [a for a in actions if a["kind"] == "source.fixAll.alloclint"][0]
        check(apply_edits(FINDING, fix_all["edit"]["changes"][uri]) == fixed, "fixAll = quickfix")

        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                            "contentChanges": [{"text": fixed}]})
        check(c.diagnostics(uri) == [], "diagnostics clear after the fix")
        c.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        check(c.diagnostics(uri) == [], "cleared on close")

        err = c.request("no/such/method", {})
        check(err.get("error", {}).get("code") == -32601, "unknown method -> -32601")
        check(c.request("shutdown", None).get("result", 1) is None, "shutdown replies null")
        c.notify("exit", None)
        check(c.p.wait(timeout=10) == 0, "exit 0 after shutdown")
    if failures:
        sys.exit(1)
    print("lsp: ok")


main()

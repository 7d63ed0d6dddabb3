// The official MCP TypeScript SDK as a client of `taskpack mcp`, as Claude Code, Cursor
// and the inspector are. Reads a scenario (JSON) on stdin:
//   {"command": "...", "args": [...], "env": {...}, "cwd": "...", "calls": [[tool, args], ...]}
// and prints one JSON line: the tools listed and, per call, what the SDK handed back
// (isError, the text, structuredContent) or the error it threw (a protocol failure,
// e.g. structured content that does not match the tool's output schema, with its
// JSON-RPC code).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const scenario = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const transport = new StdioClientTransport({
  command: scenario.command,
  args: scenario.args,
  env: scenario.env,
  cwd: scenario.cwd,
  stderr: "ignore",
});
const client = new Client({ name: "taskpack-ts-test", version: "1.0.0" });
await client.connect(transport);
const listed = await client.listTools();
const out = { tools: listed.tools.map((t) => t.name), calls: [] };
for (const [name, args] of scenario.calls) {
  try {
    const res = await client.callTool({ name, arguments: args });
    out.calls.push({
      isError: Boolean(res.isError),
      text: (res.content || []).map((c) => c.text || "").join(""),
      structuredContent: res.structuredContent ?? null,
    });
  } catch (err) {
    out.calls.push({
      thrown: String(err && err.message ? err.message : err),
      code: err && typeof err.code === "number" ? err.code : null,
    });
  }
}
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");

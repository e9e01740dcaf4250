// Starts a real `tipc serve` for the tests: a fresh store in a temporary folder, a free port.
import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createHash, randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repository = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
export const tipc = process.env.TIPC_BIN ?? join(repository, ".build/debug/tipc");

/**
 * Runs `tipc serve` on the backyard-birds example (or `options.manifest`) until `stop()`.
 * @param {{keys?: boolean, corsOrigins?: string[], manifest?: string}} options keys: a client and an admin token;
 *   manifest: a manifest's text to serve instead of the example
 */
export async function startServer(options = {}) {
  const folder = mkdtempSync(join(process.env.TMPDIR ?? tmpdir(), "tipc-js-"));
  let pack = join(repository, "Examples/backyard-birds");
  if (options.manifest) {
    mkdirSync(join(folder, "app"));
    writeFileSync(join(folder, "app/app.yaml"), options.manifest);
    pack = join(folder, "app");
  }
  const args = ["serve", "--pack", pack, "--store", `sqlite:${join(folder, "serve.sqlite")}`, "--listen", "127.0.0.1:0"];
  const tokens = {};
  if (options.keys) {
    tokens.client = randomBytes(24).toString("base64url");
    tokens.admin = randomBytes(24).toString("base64url");
    const digest = (token) => createHash("sha256").update(token).digest("hex");
    writeFileSync(join(folder, "keys.txt"), `client ${digest(tokens.client)} web\nadmin ${digest(tokens.admin)} ops\n`);
    args.push("--keys", join(folder, "keys.txt"));
  }
  for (const origin of options.corsOrigins ?? []) args.push("--cors-origin", origin);
  // Answers are logged for the OpenAPI check (scripts/test.sh) through `logged(fetch)`.
  const child = spawn(tipc, args, { cwd: folder, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => { stderr += chunk; });
  const url = await new Promise((resolvePromise, reject) => {
    let stdout = "";
    const timer = setTimeout(() => reject(new Error(`tipc serve did not start in 30 s: ${stderr}`)), 30_000);
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) { clearTimeout(timer); resolvePromise(match[1]); }
    });
    child.on("exit", (code) => { clearTimeout(timer); reject(new Error(`tipc serve exited ${code}: ${stderr}`)); });
  });
  return {
    url,
    tokens,
    folder,
    async stop() {
      const exited = new Promise((resolvePromise) => child.on("exit", resolvePromise));
      child.kill("SIGTERM");
      await exited;
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * `fetch` that appends every answer of the service to the file TIPC_TEST_HTTP_LOG names (one
 * JSON line each), for scripts/validate-openapi.py; plain `fetch` when it is not set.
 */
export function logged(fetchFunction = globalThis.fetch) {
  const file = process.env.TIPC_TEST_HTTP_LOG;
  if (!file) return fetchFunction;
  return async (url, init = {}) => {
    const response = await fetchFunction(url, init);
    const contentType = response.headers.get("Content-Type") ?? "";
    const body = contentType.startsWith("application/json") ? await response.clone().text() : "";
    const { pathname, search } = new URL(url);
    appendFileSync(file, JSON.stringify({ source: "js", method: init.method ?? "GET", path: pathname + search, status: response.status, contentType, body }) + "\n");
    return response;
  };
}

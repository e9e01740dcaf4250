// The README's JavaScript example, run as written against a real `tipc serve` of the
// backyard-birds example (only the service's address and the module's path are changed).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { TipcClient } from "../tipc.js";
import { repository, startServer } from "./server.mjs";

let server;
before(async () => { server = await startServer(); });
after(async () => { await server?.stop(); });

test("the README's example runs and leaves the tip displayed once", async () => {
  const readme = readFileSync(join(repository, "README.md"), "utf8");
  const block = /```js\n([\s\S]*?)```/.exec(readme);
  assert.ok(block, "the README has no js block");
  const script = block[1]
    .replace('"./clients/js/tipc.js"', JSON.stringify(pathToFileURL(join(repository, "clients/js/tipc.js")).href))
    .replaceAll("http://127.0.0.1:8080", server.url);
  const file = join(server.folder, "readme.mjs");
  writeFileSync(file, script);
  await promisify(execFile)(process.execPath, [file], { timeout: 30_000 });
  const snapshot = await new TipcClient(server.url).user("ann").sync();
  assert.equal(snapshot.donations.length, 3);
  assert.equal(snapshot.tips.favoriteBackyard.displayCount, 1);
});

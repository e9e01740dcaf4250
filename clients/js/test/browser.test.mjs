// The client in a real browser: headless Chromium loads a page from one origin that calls a
// `tipc serve` on another (a different port is a different origin), which works only because
// the service answers CORS for that page; a page from an origin not named is refused.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { repository, startServer } from "./server.mjs";

const run = promisify(execFile);
const chromium = process.env.TIPC_CHROMIUM ?? "chromium";

/** Serves the page and the client module from 127.0.0.1 on a free port. */
async function startPageServer() {
  const module = readFileSync(join(repository, "clients/js/tipc.js"));
  const server = createServer((request, response) => {
    const url = new URL(request.url, "http://page");
    if (url.pathname === "/tipc.js") {
      response.writeHead(200, { "Content-Type": "text/javascript" });
      response.end(module);
    } else if (url.pathname === "/") {
      response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      response.end(page(url.searchParams.get("service")));
    } else {
      response.writeHead(404);
      response.end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

/** A page that runs a journey through the client and writes what happened into the DOM. */
function page(service) {
  return `<!doctype html><meta charset="utf-8"><title>tipc client</title><pre id="result">running</pre>
<script type="module">
import { TipcClient, TipcError } from "/tipc.js";
const out = document.getElementById("result");
try {
  const user = new TipcClient(${JSON.stringify(service)}, { retries: 0 }).user("web");
  await user.setParameter("isSignedIn", true);
  for (let i = 0; i < 3; i += 1) await user.donate("backyardDetailOpened", { value: { backyardID: 4 } });
  const tip = await user.tip("favoriteBackyard");
  let error = null;
  try { await user.tip("favoriteBackyad"); } catch (e) { error = e instanceof TipcError ? e.code : String(e); }
  out.textContent = JSON.stringify({ status: tip.status, shouldDisplay: tip.shouldDisplay, title: tip.title, error });
} catch (e) {
  out.textContent = JSON.stringify({ failed: e instanceof TipcError ? e.code : String(e) });
}
</script>`;
}

async function resultOf(url) {
  const { stdout } = await run(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
    "--virtual-time-budget=15000", "--dump-dom", url], { timeout: 60_000 });
  const match = /<pre id="result">([^<]*)<\/pre>/.exec(stdout);
  assert.ok(match, `no result in the page: ${stdout.slice(0, 500)}`);
  return JSON.parse(match[1].replaceAll("&quot;", '"').replaceAll("&amp;", "&"));
}

let pages, service;
before(async () => {
  pages = await startPageServer();
  service = await startServer({ corsOrigins: [pages.origin] });
});
after(async () => {
  await service?.stop();
  pages?.server.close();
});

test("a page on an allowed origin uses the service through the client", async () => {
  const result = await resultOf(`${pages.origin}/?service=${encodeURIComponent(service.url)}`);
  assert.deepEqual(result, { status: "available", shouldDisplay: true, title: "Favorite This Backyard", error: "unknown-tip" });
});

test("a page on another origin is refused by the browser", async () => {
  // localhost and 127.0.0.1 are different origins: the service names only the second.
  const other = pages.origin.replace("127.0.0.1", "localhost");
  const result = await resultOf(`${other}/?service=${encodeURIComponent(service.url)}`);
  assert.deepEqual(result, { failed: "network" });
});

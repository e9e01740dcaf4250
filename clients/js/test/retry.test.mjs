// Retries of 503 answers, with an injected fetch and clock: deterministic, no server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { TipcClient, TipcError } from "../tipc.js";

function answers(...statuses) {
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({ url, init });
    const status = statuses[Math.min(calls.length - 1, statuses.length - 1)];
    const body = status === 200 ? '{"status":"ok"}' : JSON.stringify({ error: { code: "store-unavailable", message: "the store is busy" } });
    return new Response(body, { status, headers: status === 503 ? { "Retry-After": "1" } : {} });
  };
  return { fetch, calls };
}

test("a 503 is sent again with a growing wait, and the answer that follows is returned", async () => {
  const { fetch, calls } = answers(503, 503, 200);
  const waits = [];
  const client = new TipcClient("http://service", { fetch, sleep: async (ms) => { waits.push(ms); }, retryDelayMs: 100 });
  assert.deepEqual(await client.health(), { status: "ok" });
  assert.equal(calls.length, 3);
  // Retry-After: 1 asks for a second; the backoff is longer only when it grows past that.
  assert.deepEqual(waits, [1000, 1000]);
});

test("the backoff doubles and stops at the maximum", async () => {
  const fetch = async () => new Response("{}", { status: 503 });
  const waits = [];
  const client = new TipcClient("http://service", { fetch, sleep: async (ms) => { waits.push(ms); }, retries: 5, retryDelayMs: 200, maximumRetryDelayMs: 1000 });
  await assert.rejects(client.health(), (error) => error instanceof TipcError && error.status === 503 && error.code === "http-503");
  assert.deepEqual(waits, [200, 400, 800, 1000, 1000]);
});

test("other errors are not sent again", async () => {
  const { fetch, calls } = answers(404);
  const client = new TipcClient("http://service", { fetch, sleep: async () => assert.fail("no wait") });
  await assert.rejects(client.health(), { status: 404 });
  assert.equal(calls.length, 1);
});

test("the key is sent as a bearer token and JSON bodies are typed", async () => {
  const { fetch, calls } = answers(200);
  const client = new TipcClient("http://service/", { fetch, token: "secret" });
  await client.user("a b").setParameter("x", 1);
  assert.equal(calls[0].url, "http://service/v1/users/a%20b/parameters/x");
  assert.equal(calls[0].init.method, "PUT");
  assert.equal(calls[0].init.headers.Authorization, "Bearer secret");
  assert.equal(calls[0].init.headers["Content-Type"], "application/json");
  assert.equal(calls[0].init.body, '{"value":1}');
});

test("placeholder values and locales go in the query", async () => {
  const { fetch, calls } = answers(200);
  const client = new TipcClient("http://service", { fetch });
  await client.request("GET", "/healthz");
  const user = client.user("ann");
  await user.tips({ locale: "de-CH", values: { shortcut: "⌘K", when: new Date("2026-01-01T00:00:00Z") } }).catch(() => {});
  assert.equal(calls[1].url, "http://service/v1/users/ann/tips?locale=de-CH&value.shortcut=%E2%8C%98K&value.when=2026-01-01T00%3A00%3A00.000Z");
});

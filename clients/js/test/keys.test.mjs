// API keys through the client against a real `tipc serve --keys`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { TipcClient } from "../tipc.js";
import { logged, startServer } from "./server.mjs";

let server;
before(async () => { server = await startServer({ keys: true }); });
after(async () => { await server?.stop(); });

test("a client key reads tips; none is a 401; a client key on an admin route is a 403", async () => {
  const client = new TipcClient(server.url, { token: server.tokens.client, fetch: logged() });
  const tips = await client.user("ann").tips();
  assert.equal(tips.length, 1);
  await assert.rejects(new TipcClient(server.url, { fetch: logged() }).user("ann").tips(), { status: 401, code: "unauthorized" });
  const { bytes } = await client.pack();
  await assert.rejects(client.replacePack(bytes), { status: 403, code: "forbidden" });
  const admin = new TipcClient(server.url, { token: server.tokens.admin, fetch: logged() });
  const replaced = await admin.replacePack(bytes);
  assert.equal(replaced.tips, 1);
});

test("the report needs an admin key and names an unknown experiment", async () => {
  const client = new TipcClient(server.url, { token: server.tokens.client, fetch: logged() });
  await assert.rejects(client.report(), { status: 403, code: "forbidden" });
  const admin = new TipcClient(server.url, { token: server.tokens.admin, fetch: logged() });
  const report = await admin.report({ at: new Date("2030-01-01T00:00:00Z") });
  assert.deepEqual(report.experiments, []);
  assert.equal(report.tips.length, 1);
  assert.equal(typeof report.tips[0].usersShown, "number");
  await assert.rejects(admin.report({ experiment: "nope" }), { status: 404, code: "unknown-experiment" });
});

// The JavaScript client against a real `tipc serve` (node --test clients/js/test).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { TipcClient, TipcError } from "../tipc.js";
import { logged, startServer } from "./server.mjs";

let server;
before(async () => { server = await startServer(); });
after(async () => { await server?.stop(); });

test("a user's journey: parameters, donations, a display, an invalidation, a reset", async () => {
  const ann = new TipcClient(server.url, { fetch: logged() }).user("ann/ü");  // any string is a user id
  let [tip] = await ann.tips();
  assert.equal(tip.id, "favoriteBackyard");
  assert.equal(tip.status, "pending");
  assert.equal(tip.shouldDisplay, false);
  assert.deepEqual(tip.image, { symbol: "heart" });
  assert.deepEqual(tip.actions, [{ id: "learn-more", title: "Learn More" }]);

  assert.deepEqual(await ann.setParameter("isSignedIn", true), { name: "isSignedIn", value: true });
  for (let i = 0; i < 3; i += 1) {
    const donation = await ann.donate("backyardDetailOpened", { value: { backyardID: 7 } });
    assert.match(donation.id, /^[0-9a-f]{32}$/);
    assert.ok(!Number.isNaN(Date.parse(donation.date)));
  }
  tip = await ann.tip("favoriteBackyard");
  assert.equal(tip.status, "available");
  assert.equal(tip.shouldDisplay, true);

  tip = await ann.recordDisplay("favoriteBackyard", { milliseconds: 1500 });
  assert.equal(tip.status, "available");
  tip = await ann.invalidate("favoriteBackyard", "actionPerformed");
  assert.equal(tip.status, "invalidated(actionPerformed)");
  assert.equal(tip.shouldDisplay, false);
  tip = await ann.reset("favoriteBackyard");
  assert.equal(tip.status, "available");

  const snapshot = await ann.sync();
  assert.equal(snapshot.donations.length, 3);
  assert.equal(snapshot.parameters.isSignedIn, true);
  // Another user saw none of it.
  const [bob] = await new TipcClient(server.url, { fetch: logged() }).user("bob").tips();
  assert.equal(bob.status, "pending");
});

test("a donation dated by the app", async () => {
  const user = new TipcClient(server.url, { fetch: logged() }).user("dated");
  const answer = await user.donate("backyardDetailOpened", { value: { backyardID: 1 }, date: new Date("2026-03-01T09:00:00Z") });
  assert.equal(Date.parse(answer.date), Date.parse("2026-03-01T09:00:00Z"));
});

test("error answers are TipcErrors with the service's code and message", async () => {
  const user = new TipcClient(server.url, { fetch: logged() }).user("ann");
  await assert.rejects(user.tip("favoriteBackyad"), (error) => {
    assert.ok(error instanceof TipcError);
    assert.equal(error.status, 404);
    assert.equal(error.code, "unknown-tip");
    assert.match(error.message, /did you mean 'favoriteBackyard'/);
    return true;
  });
  await assert.rejects(user.setParameter("isSignedIn", 3), { name: "TipcError", status: 400, code: "wrong-parameter-type" });
  await assert.rejects(user.invalidate("favoriteBackyard", "closed"), { status: 400, code: "unknown-reason" });
  await assert.rejects(user.donate("nope"), { status: 404, code: "unknown-event" });
});

test("the pack and its tag: a second fetch with the tag is not modified", async () => {
  const client = new TipcClient(server.url, { fetch: logged() });
  const first = await client.pack();
  assert.equal(first.notModified, false);
  assert.ok(first.bytes.length > 16);
  assert.match(first.etag, /^"[0-9a-f]{64}"$/);
  const second = await client.pack({ etag: first.etag });
  assert.deepEqual(second, { notModified: true, etag: first.etag });
  const health = await client.health();
  assert.equal(health.status, "ok");
  assert.match(health.version, /^\d+\.\d+\.\d+/);
});

test("no answer at all is a TipcError with code 'network'", async () => {
  const client = new TipcClient("http://127.0.0.1:9", { retries: 0 });
  await assert.rejects(client.health(), { name: "TipcError", status: 0, code: "network" });
});

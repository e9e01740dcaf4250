// The user routes beyond single writes, against a real `tipc serve`: batches, groups, reasons,
// refused displays, dates ahead of the server's clock, export and deletion.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { TipcClient } from "../tipc.js";
import { logged, startServer } from "./server.mjs";

const manifest = `tipkit: 1
parameters:
  isSignedIn: { type: bool, default: false }
events:
  opened:
    value: { itemID: int }
tips:
  welcome:
    title: Welcome
    maxDisplayCount: 1
  favorite:
    title: Favorite It
    rules:
      - $isSignedIn
      - opened.count >= 2
  share:
    title: Share It
    actions: [ { id: share-now, title: Share now } ]
groups:
  start: { priority: ordered, tips: [welcome, favorite] }
`;

let server;
before(async () => { server = await startServer({ manifest }); });
after(async () => { await server?.stop(); });

const user = (id) => new TipcClient(server.url, { fetch: logged() }).user(id);

test("a batch of donations is recorded whole, or not at all", async () => {
  const ann = user("batch");
  const answered = await ann.donateBatch([
    { event: "opened", value: { itemID: 1 }, date: new Date("2026-03-01T09:00:00Z") },
    { event: "opened", value: { itemID: 2 } },
  ]);
  assert.equal(answered.length, 2);
  assert.equal(Date.parse(answered[0].date), Date.parse("2026-03-01T09:00:00Z"));
  await assert.rejects(ann.donateBatch([{ event: "opened", value: { itemID: 3 } }, { event: "opened", value: { itemID: "x" } }]),
    (error) => error.status === 400 && error.code === "wrong-field-type" && /^donation 1: /.test(error.message));
  const future = new Date(Date.now() + 3_600_000);
  await assert.rejects(ann.donateBatch([{ event: "opened", value: { itemID: 3 }, date: future }]), { status: 422, code: "date-in-future" });
  await assert.rejects(ann.donate("opened", { value: { itemID: 3 }, date: future }), { status: 422, code: "date-in-future" });
  const exported = await ann.export();
  assert.equal(exported.donations.length, 2);
});

test("a group's current tip, and why a tip is not displayed", async () => {
  const ann = user("groups");
  let offered = await ann.groupTip("start");
  assert.equal(offered.id, "welcome");
  let favorite = await ann.tip("favorite");
  assert.equal(favorite.shouldDisplay, false);
  assert.equal(favorite.reason, "pending: rule 1 does not hold");
  await assert.rejects(ann.recordDisplay("favorite"), { status: 409, code: "tip-not-available" });
  await ann.setParameter("isSignedIn", true);
  await ann.donateBatch([{ event: "opened", value: { itemID: 1 } }, { event: "opened", value: { itemID: 2 } }]);
  favorite = await ann.tip("favorite");
  assert.equal(favorite.reason, "group 'start' offers 'welcome' first");
  const welcome = await ann.recordDisplay("welcome");
  assert.equal(welcome.reason, "invalidated (displayCountExceeded)");
  offered = await ann.groupTip("start");
  assert.equal(offered.id, "favorite");
  assert.equal(offered.shouldDisplay, true);
  await assert.rejects(ann.groupTip("strt"), (error) => error.status === 404 && error.code === "unknown-group" && /did you mean 'start'/.test(error.message));
});

test("deleting a user leaves nothing of them", async () => {
  const ann = user("leaving");
  await ann.setParameter("isSignedIn", true);
  await ann.donate("opened", { value: { itemID: 1 } });
  assert.equal((await ann.export()).donations.length, 1);
  assert.equal(await ann.delete(), undefined);
  const exported = await ann.export();
  assert.deepEqual(exported.donations, []);
  assert.deepEqual(exported.parameters, {});
});

test("an action tap is recorded once, even when sent again", async () => {
  const tapper = new TipcClient(server.url, { fetch: logged() }).user("tapper");
  const tap = await tapper.recordAction("share", "share-now");
  assert.match(tap.id, /^[0-9a-f]{32}$/);
  assert.deepEqual([tap.tip, tap.action], ["share", "share-now"]);
  // The same tap again (a retry keeps its id and date): recorded once.
  const date = new Date("2026-03-01T09:00:00Z");
  const first = await tapper.recordAction("share", "share-now", { id: "tap-1", date });
  const again = await tapper.recordAction("share", "share-now", { id: "tap-1", date });
  assert.deepEqual(again, first);
  await assert.rejects(tapper.recordAction("share", "share-nw"),
    (error) => error.status === 404 && error.code === "unknown-action" && /did you mean 'share-now'\?/.test(error.message));
  await assert.rejects(tapper.recordAction("shar", "share-now"), { status: 404, code: "unknown-tip" });
  const exported = await tapper.export();
  const taps = exported.records.tips.filter((record) => record.kind === "action");
  assert.deepEqual(taps.map((record) => record.id).sort(), [tap.id, "tap-1"].sort());
});

test("a tap retried after a 503 is the same tap", async () => {
  let calls = 0;
  const bodies = [];
  const flaky = async (url, init) => {
    calls += 1;
    bodies.push(init.body);
    if (calls === 1) return new Response(JSON.stringify({ error: { code: "store-unavailable", message: "busy" } }), { status: 503 });
    return logged()(url, init);
  };
  const tapper = new TipcClient(server.url, { fetch: flaky, retryDelayMs: 1 }).user("retrier");
  const tap = await tapper.recordAction("share", "share-now");
  assert.equal(calls, 2);
  assert.equal(bodies[0], bodies[1], "the retry sends the same id and date");
  assert.equal(JSON.parse(bodies[0]).id, tap.id);
});

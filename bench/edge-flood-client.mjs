// The hostile client of bench/edge-flood.mjs body mode, in its own process (so that making and
// sending its bodies does not delay the probe): 4 at a time, event batches of about `size` bytes
// from one address (X-Forwarded-For 203.0.113.9 through a trusted loopback). Prints its answers.
//   node bench/edge-flood-client.mjs <port> <size> <seconds>
import http from "node:http";
const [port, size, seconds] = process.argv.slice(2).map(Number);
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
const props = (n) => Object.fromEntries(Array.from({ length: n }, (_, j) => ["k" + j, j]));
const mk = (events, n) => JSON.stringify({ user: { user_customer_id: "big" }, events: Array.from({ length: events }, (_, i) => ({ event_type: "TRACK", insert_id: `${process.pid}-TAG-${String(i).padStart(3, "0")}`, event_timestamp: 1764300000000, name: "n", properties: props(n) })) });
// 500 events with as many properties as fit, or fewer events with one.
let lo = 0, hi = 200;
while (lo < hi) { const mid = Math.ceil((lo + hi) / 2); if (mk(500, mid).length <= size) lo = mid; else hi = mid - 1; }
let template = mk(500, lo);
if (lo === 0 || template.length > size) { let e = 500; while ((template = mk(e, 1)).length > size) e -= 5; }
let k = 0;
const statuses = {};
const post = () => new Promise((resolve) => {
  const body = template.replaceAll("TAG-", (k++).toString(36).padStart(4, "0"));
  const req = http.request({ host: "127.0.0.1", port, path: "/v1/cfe/?cfenc=ck_demo_littlesprouts", method: "POST", agent, headers: { "content-type": "text/plain", "x-forwarded-for": "203.0.113.9", "content-length": Buffer.byteLength(body) } }, (res) => { res.resume(); res.on("end", () => resolve(res.statusCode)); });
  req.on("error", (e) => resolve(e.code));
  req.end(body);
});
const end = Date.now() + seconds * 1000;
// Under the per-address request limit (100/s): 4 loops of at most 22 requests a second each.
await Promise.all(Array.from({ length: 4 }, async () => {
  while (Date.now() < end) {
    const started = Date.now();
    const s = await post(); statuses[s] = (statuses[s] ?? 0) + 1;
    await new Promise((r) => setTimeout(r, Math.max(0, 1000 / 22 - (Date.now() - started))));
  }
}));
console.log(JSON.stringify({ bytes: template.length, statuses }));
process.exit(0);

// The baseline of the decision benchmark: a bare node:http server that reads the request body,
// parses it, and answers JSON.stringify of a real answer of the service (BENCH_ANSWER_FILE: a
// JSON array of them, answered in turn) with the same headers. Whatever the service spends
// beyond this is the cost of the service.
// Prints `{"port":…}` on stdout once listening.

import { readFileSync } from "node:fs";
import http from "node:http";

const answers = JSON.parse(readFileSync(process.env.BENCH_ANSWER_FILE, "utf8"));
let next = 0;

const server = http.createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    JSON.parse(body);
    const text = JSON.stringify(answers[next++ % answers.length]);
    res.writeHead(200, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(text),
      "access-control-allow-origin": req.headers.origin ?? "*",
      vary: "Origin",
    });
    res.end(text);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(JSON.stringify({ port: server.address().port }) + "\n"));
// The benchmark asks for this process's CPU time over IPC (free of other processes' load).
process.on("message", () => process.send?.(process.cpuUsage()));
process.on("SIGTERM", () => server.close(() => process.exit(0)));

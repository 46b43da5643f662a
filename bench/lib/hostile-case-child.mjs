/**
 * One case of the hostile-input catalogue in a process of its own (forked
 * by `bench/hostile-catalogue.mjs`): serves the case's gateway from a built
 * package on node:http, warms it up, sends the case from this same process
 * and reports to the parent over IPC: the answer's status and problems,
 * the request's wall time, the longest event-loop block while it was
 * served (CPU and wall), and the growth of the peak resident memory.
 *
 * Usage: node hostile-case-child.mjs <dist dir> <case index>
 */
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HOSTILE_CASES } from './hostile-cases.mjs';
import { answerProblems, prepareServer, profileOptions, runHostileCase } from './hostile-run.mjs';
import { memory, resetPeak } from './proc-stats.mjs';

const [distArg, indexArg] = process.argv.slice(2);
const dist = resolve(distArg ?? 'dist');
const hostileCase = HOSTILE_CASES[Number(indexArg)];
if (!hostileCase) throw new Error(`no case ${indexArg}`);

const load = (entry) => import(pathToFileURL(join(dist, entry)).href);
const [core, node, testing] = await Promise.all([load('index.js'), load('node.js'), load('testing.js')]);
const gateway = core.createGateway(profileOptions(hostileCase.profile, { memoryResponseStore: core.memoryResponseStore, createSimulator: testing.createSimulator }));
const server = createServer(node.createNodeHandler(gateway));
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const baseUrl = `http://127.0.0.1:${server.address().port}`;

await prepareServer(baseUrl, hostileCase.profile);
const body = hostileCase.body?.();
globalThis.gc?.();
const before = memory(process.pid);
const peakWasReset = resetPeak(process.pid);
const maxRssBefore = process.resourceUsage().maxRSS * 1024;

const run = await runHostileCase(baseUrl, hostileCase, body);

const after = memory(process.pid);
// The peak since the reset (VmHWM), else the growth of the process's lifetime peak.
const peakGrowth = peakWasReset && Number.isFinite(after.hwm) ? after.hwm - before.rss : process.resourceUsage().maxRSS * 1024 - maxRssBefore;
process.send?.({
  status: run.answer.status,
  problems: [...answerProblems(hostileCase, run.answer), ...(run.prototypePolluted ? ['Object.prototype changed'] : [])],
  bodyBytes: body === undefined ? 0 : Buffer.byteLength(body),
  wallMs: run.wallMs,
  maxBlockMs: run.maxBlockMs,
  maxBlockWallMs: run.maxBlockWallMs,
  peakRssGrowthBytes: Math.max(0, peakGrowth),
});
server.closeAllConnections();
server.close();
await gateway.close();
process.exit(0);

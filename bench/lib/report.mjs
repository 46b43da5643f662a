/**
 * Turns the raw rows of a run into ratios (to the direct upstream and to
 * the bare proxy of the same framework, both measured in the same run),
 * checks the performance targets, and prints the tables.
 */
import { SCENARIOS, TARGETS } from './matrix.mjs';

/** The scenarios the observability cost targets are measured on. */
const OBSERVABILITY_SCENARIOS = ['chat', 'messages', 'stream-50', 'stream-5000'];
const find = (rows, scenario, target) => rows.find((r) => r.scenario === scenario && r.target === target && !r.error);
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? a / b : null);

/** Adds the ratio fields to every row (in place) and returns the rows. */
export function addRatios(rows) {
  for (const row of rows) {
    if (row.error) continue;
    const scenario = SCENARIOS[row.scenario];
    const direct = find(rows, row.scenario, 'direct');
    const bare = find(rows, row.scenario, TARGETS[row.target].bare);
    if (scenario.type === 'load') {
      row.rpsXDirect = ratio(row.rps, direct?.rps);
      row.rpsXBare = ratio(row.rps, bare?.rps);
      row.cpuXBare = ratio(row.cpuUsPerReq, bare?.cpuUsPerReq);
    } else if (scenario.type === 'stream') {
      row.eventsXDirect = ratio(row.eventsPerSec, direct?.eventsPerSec);
      row.eventsXBare = ratio(row.eventsPerSec, bare?.eventsPerSec);
      row.cpuPerEventXBare = ratio(row.cpuUsPerEvent, bare?.cpuUsPerEvent);
      row.ttfbAddedMs = direct ? row.ttfbP50Ms - direct.ttfbP50Ms : null;
    } else if (scenario.type === 'readers') {
      row.memXBare = ratio(row.memPerStreamKB, bare?.memPerStreamKB);
    } else {
      row.memXBare = ratio(row.memPerStreamKB, bare?.memPerStreamKB);
      row.firstEventXBare = ratio(row.firstEventP50Ms, bare?.firstEventP50Ms);
      row.firstEventP99XBare = ratio(row.firstEventP99Ms, bare?.firstEventP99Ms);
      row.firstEventAddedMs = direct ? row.firstEventP50Ms - direct.firstEventP50Ms : null;
    }
    const baselineId = TARGETS[row.target].baseline;
    if (baselineId) {
      // Observability cost: the same server without observability, same scenario, same run.
      const base = find(rows, row.scenario, baselineId);
      row.baseline = baselineId;
      row.throughputXBaseline = scenario.type === 'stream' ? ratio(row.eventsPerSec, base?.eventsPerSec) : ratio(row.rps, base?.rps);
      row.throughputByCpuXBaseline = scenario.type === 'stream' ? ratio(base?.cpuUsPerEvent, row.cpuUsPerEvent) : ratio(base?.cpuUsPerReq, row.cpuUsPerReq);
      const sdkBaselineId = TARGETS[row.target].sdkBaseline;
      const sdk = sdkBaselineId ? find(rows, row.scenario, sdkBaselineId) : undefined;
      if (sdk) {
        // The gateway's own instrumentation: the same SDK running in both processes.
        row.throughputByCpuXSdkOnly = scenario.type === 'stream' ? ratio(sdk.cpuUsPerEvent, row.cpuUsPerEvent) : ratio(sdk.cpuUsPerReq, row.cpuUsPerReq);
      }
      const activeId = TARGETS[row.target].sdkActiveBaseline;
      const active = activeId ? find(rows, row.scenario, activeId) : undefined;
      if (active) {
        // The same, with the SDK's async context tracking on in both processes (it is in `full` after the SDK's first export).
        row.throughputByCpuXSdkActive = scenario.type === 'stream' ? ratio(active.cpuUsPerEvent, row.cpuUsPerEvent) : ratio(active.cpuUsPerReq, row.cpuUsPerReq);
      }
    }
    if (scenario.compare) {
      const base = find(rows, scenario.compare, row.target);
      row.compareTo = scenario.compare;
      row.cpuXCompare = scenario.type === 'stream'
        ? ratio(row.cpuUsPerEvent, base?.cpuUsPerEvent)
        : ratio(row.cpuUsPerReq, base?.cpuUsPerReq);
    }
  }
  return rows;
}

function check(name, value, limit, cmp, detail) {
  if (value === null || value === undefined || !Number.isFinite(value)) return { name, status: 'not measured', detail };
  const met = cmp === '>=' ? value >= limit : value <= limit;
  return { name, value: Number(value.toFixed(3)), limit, cmp, status: met ? 'met' : 'NOT met', detail };
}

/** The performance targets, each `{ name, value, limit, status }`. CPU-based figures are the noise-robust ones. */
export function checkTargets(rows, limitsCost) {
  const out = [];
  const pairs = [
    ['modelgate-express', 'bare-express', ['chat', 'messages']],
    ['modelgate-express-keepraw', 'bare-express', ['chat']],
    ['modelgate-express-raw', 'bare-express-raw', ['chat']],
    ['modelgate-koa', 'bare-koa', ['chat', 'messages']],
    ['modelgate-fastify', 'bare-fastify', ['chat', 'messages']],
    ['modelgate-hono', 'bare-hono', ['chat', 'messages']],
    ['modelgate-node', 'bare-node', ['chat', 'messages']],
  ];
  for (const [mg, bare, scenarios] of pairs) {
    const limit = mg === 'modelgate-node' ? 0.8 : 0.9;
    for (const scenario of scenarios) {
      const m = find(rows, scenario, mg);
      const b = find(rows, scenario, bare);
      out.push(check(`${mg} ${scenario}: throughput vs ${bare} (by CPU/request)`, ratio(b?.cpuUsPerReq, m?.cpuUsPerReq), limit, '>='));
      out.push(check(`${mg} ${scenario}: throughput vs ${bare} (measured req/s)`, ratio(m?.rps, b?.rps), limit, '>='));
    }
  }
  const mgChat = find(rows, 'chat', 'modelgate-node');
  const pkChat = find(rows, 'chat', 'portkey');
  out.push(check('modelgate-node chat: throughput vs Portkey (by CPU/request)', ratio(pkChat?.cpuUsPerReq, mgChat?.cpuUsPerReq), 5, '>='));
  out.push(check('modelgate-node chat: throughput vs Portkey (measured req/s)', ratio(mgChat?.rps, pkChat?.rps), 5, '>='));
  for (const mg of ['modelgate-node', 'modelgate-express', 'modelgate-koa', 'modelgate-fastify', 'modelgate-hono']) {
    const s = find(rows, 'stream-5000', mg);
    out.push(check(`${mg} stream-5000: CPU per event vs bare proxy`, s?.cpuPerEventXBare, 1.3, '<='));
  }
  const s = find(rows, 'stream-5000', 'modelgate-node');
  out.push(check('modelgate-node stream-5000: events/s on one core (1e6 / CPU µs per event)', s ? 1e6 / s.cpuUsPerEvent : null, 150_000, '>='));
  const t = find(rows, 'stream-5000-translated', 'modelgate-node');
  out.push(check('modelgate-node: translated stream CPU per event vs passthrough', t?.cpuXCompare, 2, '<='));
  // Limits: what they add to the same node:http server (requests + concurrency rules, all admitted).
  for (const scenario of ['chat', 'messages']) {
    const base = find(rows, scenario, 'modelgate-node');
    const memory = find(rows, scenario, 'modelgate-node-limits');
    const redis = find(rows, scenario, 'modelgate-node-limits-redis');
    out.push(check(`limits in memory, ${scenario}: added server CPU µs per request (HTTP, noisy)`, memory && base ? memory.cpuUsPerReq - base.cpuUsPerReq : null, 5, '<='));
    out.push(check(`limits in Redis, ${scenario}: throughput vs no limits (measured req/s)`, ratio(redis?.rps, base?.rps), 0.85, '>='));
    out.push(check(`limits in Redis, ${scenario}: throughput vs no limits (by CPU/request)`, ratio(base?.cpuUsPerReq, redis?.cpuUsPerReq), 0.85, '>='));
  }
  const inProcess = limitsCost?.rows?.find((row) => row.config === 'memory: requests + concurrent');
  out.push(check('limits in memory: added CPU µs per request (in-process, requests + concurrent)', inProcess?.addedCpuUs ?? null, 5, '<='));
  const inRedis = limitsCost?.rows?.find((row) => row.config === 'redis: requests + concurrent');
  // One call per request; settles that find no reserve to ride with go out batched per principal, a few per thousand here.
  out.push(check('limits in Redis: script calls per request (in-process, requests + concurrent)', inRedis?.redisCallsPerReq ?? null, 1.05, '<='));
  // Observability: off by default it costs nothing measurable; the OTel SDK + prom-client keep ≥ 0.9× throughput.
  for (const [target, limit, what] of [['modelgate-node-otel-api', 0.95, 'openTelemetry on, no SDK'], ['modelgate-node-observed', 0.9, 'OTel SDK + prom-client']]) {
    for (const scenario of OBSERVABILITY_SCENARIOS) {
      const row = find(rows, scenario, target);
      out.push(check(`observability (${what}), ${scenario}: throughput vs modelgate-node (by CPU)`, row?.throughputByCpuXBaseline, limit, '>='));
      out.push(check(`observability (${what}), ${scenario}: throughput vs modelgate-node (measured)`, row?.throughputXBaseline, limit, '>='));
    }
  }
  const slow = find(rows, 'slow-streams', 'modelgate-node');
  out.push(check('modelgate-node: memory per open stream vs bare proxy', slow?.memXBare, 1.1, '<='));
  out.push(check('modelgate-node: first-event delay (p50) at 1,000 opening streams vs bare proxy', slow?.firstEventXBare, 1.2, '<='));
  // Slow clients: slow-opening streams and clients that stop reading.
  out.push(check('modelgate-node first-event delay p99 at 1,000 opening slow streams vs bare proxy', slow?.firstEventP99XBare, 1.2, '<='));
  for (const [mg, bare] of [['modelgate-node', 'bare-node'], ['modelgate-express', 'bare-express'], ['modelgate-koa', 'bare-koa']]) {
    const readers = find(rows, 'slow-readers', mg);
    if (!readers && mg !== 'modelgate-node') continue;
    out.push(check(`${mg} memory per slow-reading stream vs ${bare}`, readers?.memXBare, 1.2, '<='));
    out.push(check(`${mg} upstreams of never-reading clients held back (share writing ≤ 256 KB during the window)`, readers ? readers.heldBack / readers.stalled : null, 1, '>='));
  }
  return out;
}

/** The in-process limits cost table. */
export function formatLimitsCost(limitsCost) {
  if (!limitsCost || limitsCost.error) return `### Limits: CPU added per request (in-process)\n\nnot measured: ${limitsCost?.error ?? 'no figures'}`;
  return [
    '### Limits: CPU added per request (in-process, ~1 KB chat, in-process upstream)\n',
    table(
      ['limits', 'CPU µs/req', 'added µs/req', 'req/s (16 in flight)', '× none', 'Redis calls/req'],
      limitsCost.rows.map((row) => [row.config, f(row.cpuUsPerReq, 1), f(row.addedCpuUs, 1), f(row.rps), x(row.rpsXNone), f(row.redisCallsPerReq, 2)]),
    ),
  ].join('\n');
}

const f = (value, digits = 0) => (value === null || value === undefined || !Number.isFinite(value) ? '-' : value.toFixed(digits));
const pctOf = (share) => (Number.isFinite(share) ? `${Math.round(100 * share)}%` : '-');
const x = (value) => (value === null || value === undefined || !Number.isFinite(value) ? '-' : `${value.toFixed(2)}×`);

function table(headers, lines) {
  const widths = headers.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)));
  const fmt = (cells) => `| ${cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join(' | ')} |`;
  return [fmt(headers), `|${widths.map((w, i) => (i === 0 ? ` ${'-'.repeat(w)} ` : ` ${'-'.repeat(w - 1)}: `)).join('|')}|`, ...lines.map(fmt)].join('\n');
}

/** The run as Markdown tables (also what `npm run bench` prints). */
export function formatReport(rows, targets) {
  const parts = [];
  for (const [id, scenario] of Object.entries(SCENARIOS)) {
    const these = rows.filter((r) => r.scenario === id);
    if (these.length === 0) continue;
    parts.push(`### ${scenario.label}${scenario.compare ? ` (compared with ${scenario.compare})` : ''}\n`);
    const label = (r) => TARGETS[r.target].label;
    if (scenario.type === 'load') {
      parts.push(table(
        ['target', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'peak RSS MB', '× direct', '× bare', 'CPU × bare', ...(scenario.compare ? [`CPU × ${scenario.compare}`] : []), 'load core', 'failed'],
        these.map((r) => r.error ? [label(r), `not measured: ${r.error}`, '', '', '', '', '', '', '', ...(scenario.compare ? [''] : []), '', '']
          : [label(r), f(r.rps), f(r.p50Ms), f(r.p99Ms), f(r.cpuUsPerReq), f(r.peakRssMB), x(r.rpsXDirect), x(r.rpsXBare), x(r.cpuXBare), ...(scenario.compare ? [x(r.cpuXCompare)] : []), pctOf(r.loadCpuShare), r.failed]),
      ));
    } else if (scenario.type === 'stream') {
      parts.push(table(
        ['target', 'events/s', 'CPU µs/event', 'streams/s', 'TTFB p50 ms', 'TTFB added ms', 'peak RSS MB', '× direct', '× bare', 'CPU/event × bare', ...(scenario.compare ? [`CPU × ${scenario.compare}`] : []), 'load core', 'failed'],
        these.map((r) => r.error ? [label(r), `not measured: ${r.error}`, '', '', '', '', '', '', '', '', ...(scenario.compare ? [''] : []), '', '']
          : [label(r), f(r.eventsPerSec), f(r.cpuUsPerEvent, 2), f(r.rps, 1), f(r.ttfbP50Ms, 2), f(r.ttfbAddedMs, 2), f(r.peakRssMB), x(r.eventsXDirect), x(r.eventsXBare), x(r.cpuPerEventXBare), ...(scenario.compare ? [x(r.cpuXCompare)] : []), pctOf(r.loadCpuShare), r.failed]),
      ));
    } else if (scenario.type === 'readers') {
      parts.push(table(
        ['target', 'streams', 'open', 'KB per stream', 'peak RSS MB', 'mem × bare', 'reader KB/s', 'unread upstreams held back', 'unread max KB written', 'unread max KB growth in window', 'read median KB written', 'failed'],
        these.map((r) => r.error ? [label(r), `not measured: ${r.error}`, '', '', '', '', '', '', '', '', '', '']
          : [label(r), `${r.readers}+${r.stalled}`, r.ok, f(r.memPerStreamKB, 1), f(r.peakRssMB), x(r.memXBare), f(r.readerKBps, 1), `${r.heldBack} of ${r.unreadUpstreams}`, f(r.heldBackMaxKB), f(r.unreadMaxGrowthKB), f(r.readMedianKB), r.failed]),
      ));
    } else {
      parts.push(table(
        ['target', 'streams', 'completed', 'all open at once', 'KB per open stream', 'first event p50 ms', 'p99 ms', 'max ms', 'added p50 ms', 'mem × bare', 'first event p50 × bare', 'p99 × bare'],
        these.map((r) => r.error ? [label(r), `not measured: ${r.error}`, '', '', '', '', '', '', '', '', '', '']
          : [label(r), r.streams, r.ok, r.allOpen ? 'yes' : 'no', f(r.memPerStreamKB, 1), f(r.firstEventP50Ms, 1), f(r.firstEventP99Ms, 1), f(r.firstEventMaxMs, 1), f(r.firstEventAddedMs, 1), x(r.memXBare), x(r.firstEventXBare), x(r.firstEventP99XBare)]),
      ));
    }
    parts.push('');
  }
  const observed = rows.filter((r) => TARGETS[r.target].baseline !== undefined);
  if (observed.length > 0) {
    parts.push('### Observability cost: each row compared with modelgate, node:http in the same run\n');
    parts.push(table(
      ['target', 'scenario', 'req/s or events/s', 'CPU µs per req or event', '× modelgate-node (measured)', '× modelgate-node (by CPU)', '× SDK only (by CPU)', '× SDK active (by CPU)'],
      observed.map((r) => r.error ? [TARGETS[r.target].label, r.scenario, `not measured: ${r.error}`, '', '', '', '', '']
        : [TARGETS[r.target].label, r.scenario, f(SCENARIOS[r.scenario].type === 'stream' ? r.eventsPerSec : r.rps), f(SCENARIOS[r.scenario].type === 'stream' ? r.cpuUsPerEvent : r.cpuUsPerReq, 1), x(r.throughputXBaseline), x(r.throughputByCpuXBaseline), x(r.throughputByCpuXSdkOnly), x(r.throughputByCpuXSdkActive)]),
    ));
    parts.push('');
  }
  parts.push('### Targets\n');
  parts.push(table(['target', 'value', 'limit', 'status'], targets.map((t) => [t.name, t.value ?? '-', t.limit === undefined ? '-' : `${t.cmp} ${t.limit}`, t.status])));
  return parts.join('\n');
}

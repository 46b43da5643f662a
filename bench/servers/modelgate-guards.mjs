/**
 * modelgate on node:http with the bench routes (modelgate-options.mjs), a
 * route `gpt-bench-paced` to a chat stream of `PACED_EVENTS` deltas, one
 * every `PACED_MS` ms, and, by `BENCH_GUARDS`, the gateway's guards:
 *
 *   absent   no `guards` option at all
 *   empty    `guards: []`
 *   input    an input-only guard (`denyList`'s input check alone): the output path is skipped
 *   pii      `piiRedactor()` (input and output, holdback 128 characters)
 *   deny+pii `denyList({ terms })` and `piiRedactor()`
 *
 * `GET /bench/cpu` answers this process's `process.cpuUsage()` (µs).
 */
import { denyList, openAICompatible, piiRedactor } from '../../dist/index.js';
import { createGateway, createNodeHandler } from '../../dist/node.js';
import { createCpuReportingServer } from '../lib/server-cpu.mjs';
import { announce } from './announce.mjs';
import { gatewayOptions } from './modelgate-options.mjs';

const TERMS = ['project nightingale', 'internal only', 'do not distribute'];

function inputOnly() {
  const { name, input } = denyList({ terms: TERMS });
  return { name: `${name}-input`, input };
}

function guardsFor(kind) {
  switch (kind) {
    case 'absent': return undefined;
    case 'empty': return [];
    case 'input': return [inputOnly()];
    case 'pii': return [piiRedactor()];
    case 'deny+pii': return [denyList({ terms: TERMS }), piiRedactor()];
    default: throw new Error(`BENCH_GUARDS must be absent, empty, input, pii or deny+pii, not ${kind}`);
  }
}

const stub = process.env.STUB;
const base = gatewayOptions(stub);
const paced = openAICompatible({ baseURL: `${stub}/sse/${process.env.PACED_EVENTS}/${process.env.PACED_MS}/v1`, apiKey: 'sk-upstream', name: 'stub-paced' });
const guards = guardsFor(process.env.BENCH_GUARDS ?? 'absent');
const gateway = createGateway({ ...base, routes: [{ match: 'gpt-bench-paced', upstream: paced }, ...base.routes], ...(guards ? { guards } : {}) });
const handler = createNodeHandler(gateway);
const server = createCpuReportingServer(handler);
announce(server, Number(process.env.PORT ?? 0), () => gateway.close());

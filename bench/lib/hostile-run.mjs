/**
 * Runs one case of the hostile-input catalogue against a server on
 * 127.0.0.1 and judges its answer. Shared by the vitest suite (server in
 * the test's own thread) and the bench (server in a child process), so
 * both send the same bytes and apply the same checks.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { CHAT_MODEL, HOSTILE_KEY, HOSTILE_PROFILES, VENDOR_MODEL } from './hostile-cases.mjs';

/** @typedef {import('./hostile-case-types.js').HostileCase} HostileCase */
/** @typedef {import('./hostile-case-types.js').HostileRequest} HostileRequest */
/** @typedef {import('./hostile-case-types.js').HostileAnswer} HostileAnswer */
/** @typedef {import('./hostile-case-types.js').PackageParts} PackageParts */

/** Response headers longer than this would mean caller text reflected without a bound. */
const LONGEST_RESPONSE_HEADER = 4096;
/** How long a background call gets to take its admission place before the case is sent. */
const BACKGROUND_HEAD_START_MS = 150;

/**
 * The longest the event loop may be blocked while one request is served, in
 * CPU ms of its thread: 100 ms, plus 100 ms per MiB of body (parsing,
 * copying, validating and counting a body is linear work of tens of ms per
 * MiB), or the case's own bound. Quadratic work on caller text takes
 * seconds.
 */
export function blockBoundMs(hostileCase, bodyBytes) {
  return hostileCase.expect.maxBlockMs ?? Math.round(100 + (100 * bodyBytes) / (1024 * 1024));
}

/** CPU time this thread has used, in ns (Linux), or undefined where that cannot be read. */
export function threadCpuNs() {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
  } catch {
    return undefined;
  }
}

/**
 * Measures the longest block of this thread's event loop: a timer ticks
 * every 5 ms, and the longest stretch between two ticks is the longest
 * block. Measured twice: in CPU time of this thread (what the code cost; a
 * loaded machine that keeps the thread waiting for a core does not add to
 * it), and in wall time (`monitorEventLoopDelay`: what other requests of
 * the app waited). Where the thread's CPU time cannot be read, the CPU
 * figure is the wall one.
 */
export function startBlockMonitor() {
  const wall = monitorEventLoopDelay({ resolution: 5 });
  wall.enable();
  let last = threadCpuNs();
  let longestCpuNs = 0;
  const tick = () => {
    const now = threadCpuNs();
    if (now !== undefined && last !== undefined) longestCpuNs = Math.max(longestCpuNs, now - last);
    last = now;
  };
  const timer = setInterval(tick, 5);
  return {
    stop() {
      clearInterval(timer);
      tick();
      wall.disable();
      const wallMs = wall.max / 1e6;
      return { wallMs, cpuMs: last === undefined ? wallMs : longestCpuNs / 1e6 };
    },
  };
}

/** The full options of a profile's gateway. */
export function profileOptions(name, parts) {
  return { auth: { keys: [HOSTILE_KEY] }, ...HOSTILE_PROFILES[name].options(parts) };
}

/** Headers of a request: its key as asked, JSON content type unless it sets its own. */
export function requestHeaders(request) {
  const auth = request.auth ?? 'bearer';
  /** @type {Record<string, string>} */
  const headers = { 'content-type': 'application/json' };
  if (auth === 'bearer') headers.authorization = `Bearer ${HOSTILE_KEY}`;
  if (auth === 'x-api-key') headers['x-api-key'] = HOSTILE_KEY;
  return { ...headers, ...request.headers };
}

/**
 * Sends one request; resolves with the answer, or with status 0 and the
 * error's code when the connection failed or was cut.
 *
 * @param {string} baseUrl
 * @param {HostileRequest} request
 * @param {{ body?: Uint8Array | string, signal?: AbortSignal }} [options]
 * @returns {Promise<HostileAnswer & { wallMs: number, error?: string }>}
 */
export function sendHostile(baseUrl, request, options = {}) {
  const body = options.body ?? request.body?.();
  const started = performance.now();
  return new Promise((resolve) => {
    const headers = requestHeaders(request);
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const req = httpRequest(new URL(request.path, baseUrl), { method: request.method, headers, signal: options.signal }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), wallMs: performance.now() - started }));
      res.on('error', (error) => resolve({ status: 0, headers: {}, text: '', wallMs: performance.now() - started, error: error.code ?? error.message }));
    });
    req.on('error', (error) => resolve({ status: 0, headers: {}, text: '', wallMs: performance.now() - started, error: error.code ?? error.message }));
    req.end(body);
  });
}

/** Requests that load what the gateway loads lazily (the tokenizer, the translators) before anything is timed. */
export const WARM_UP = [
  { method: 'POST', path: '/v1/responses/input_tokens', body: () => JSON.stringify({ model: CHAT_MODEL, input: 'Warm up the counter.' }) },
  { method: 'POST', path: '/v1/messages/count_tokens', auth: 'x-api-key', body: () => JSON.stringify({ model: VENDOR_MODEL, messages: [{ role: 'user', content: 'Warm up.' }] }) },
  { method: 'POST', path: '/v1/chat/completions', body: () => JSON.stringify({ model: CHAT_MODEL, messages: 5 }) },
  { method: 'POST', path: '/v1/chat/completions', body: () => JSON.stringify({ model: CHAT_MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'Warm up.' }] }) },
  { method: 'POST', path: '/v1/messages', auth: 'x-api-key', body: () => JSON.stringify({ model: VENDOR_MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'Warm up.' }] }) },
  { method: 'POST', path: '/v1/responses', body: () => JSON.stringify({ model: CHAT_MODEL, input: 'Warm up.', store: false }) },
  { method: 'GET', path: '/v1/models' },
];

/** Warms a server up and runs its profile's setup; throws when a setup request is not answered 200. */
export async function prepareServer(baseUrl, profileName) {
  for (const request of WARM_UP) await sendHostile(baseUrl, request);
  for (const request of HOSTILE_PROFILES[profileName].setup ?? []) {
    const answer = await sendHostile(baseUrl, request);
    if (answer.status !== 200) throw new Error(`setup ${request.method} ${request.path} of profile ${profileName} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  }
}

/**
 * Sends a case with its background call (if any) and measures it: the wall
 * time of its request and the longest block of this thread's event loop
 * while it was served (the server's, when the server runs in this thread;
 * see `startBlockMonitor`).
 *
 * @param {string} baseUrl
 * @param {HostileCase} hostileCase
 * @param {Uint8Array | string | undefined} body the case's body, built beforehand
 */
export async function runHostileCase(baseUrl, hostileCase, body) {
  const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).join(',');
  const background = new AbortController();
  const held = hostileCase.background ? sendHostile(baseUrl, hostileCase.background, { signal: background.signal }) : undefined;
  if (held) await delay(BACKGROUND_HEAD_START_MS);
  const monitor = startBlockMonitor();
  const answer = await sendHostile(baseUrl, hostileCase, { body });
  // A few more turns of the loop so a block that ended the request is recorded.
  await delay(10);
  const block = monitor.stop();
  background.abort();
  await held;
  const prototypeAfter = Object.getOwnPropertyNames(Object.prototype).join(',');
  return {
    answer,
    wallMs: answer.wallMs,
    maxBlockMs: block.cpuMs,
    maxBlockWallMs: block.wallMs,
    prototypePolluted: prototypeBefore !== prototypeAfter,
  };
}

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const nullableString = (value) => value === null || typeof value === 'string';

/** `value` as JSON, cut to 200 characters: a problem quotes caller text, which may be megabytes long. */
function excerpt(value) {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 200 ? `${text.slice(0, 200)}…(${text.length} characters)` : text;
}

/** Whether `text` names `field`: as a segment of a dotted path, or as a word of a message. */
function namesField(text, field) {
  if (typeof text !== 'string') return false;
  const escaped = field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_])${escaped}([^A-Za-z0-9_]|$)`).test(text);
}

/** What is wrong with an error body of `format`, or nothing. */
function errorFormatProblems(format, body) {
  if (format === 'openai') {
    const error = isObject(body) ? body.error : undefined;
    if (!isObject(error) || typeof error.message !== 'string' || typeof error.type !== 'string' || !nullableString(error.param) || !nullableString(error.code) || !('param' in error) || !('code' in error)) {
      return ['error body is not {error:{message,type,param,code}}'];
    }
    return [];
  }
  if (!isObject(body) || body.type !== 'error' || !isObject(body.error) || typeof body.error.type !== 'string' || typeof body.error.message !== 'string') {
    return ['error body is not {type:"error",error:{type,message}}'];
  }
  return [];
}

/**
 * Everything about `answer` that breaks the case's expectation (empty when
 * it meets it): status, error format, the field and bound a refusal must
 * name, the header that must be clean, headers that reflect caller text.
 *
 * @param {HostileCase} hostileCase
 * @param {HostileAnswer & { error?: string }} answer
 * @returns {string[]}
 */
export function answerProblems(hostileCase, answer) {
  const expected = hostileCase.expect;
  if (answer.status === 0) return [`no answer: the connection failed (${answer.error})`];
  const problems = [];
  const statuses = typeof expected.status === 'number' ? [expected.status] : expected.status;
  if (!statuses.includes(answer.status)) problems.push(`status ${answer.status}, expected ${statuses.join(' or ')}`);
  const contentType = String(answer.headers['content-type'] ?? '');
  const body = parseJson(answer.text);
  if (answer.status >= 400) {
    if (!contentType.startsWith('application/json')) problems.push(`error content-type ${contentType || '(none)'}, expected application/json`);
    problems.push(...errorFormatProblems(expected.format, body));
    const error = isObject(body) && isObject(body.error) ? body.error : {};
    if (expected.names && !namesField(error.param, expected.names) && !namesField(error.message, expected.names)) {
      problems.push(`the error does not name \`${expected.names}\` (param ${excerpt(error.param)}, message ${excerpt(error.message)})`);
    }
    if (expected.bound !== undefined && !String(error.message ?? '').replace(/[,_\s\u202f]/g, '').includes(String(expected.bound))) {
      problems.push(`the error does not state the bound ${expected.bound} (message ${excerpt(error.message)})`);
    }
  } else if (answer.status === 200 && body === undefined) {
    problems.push('a 200 whose body is not JSON');
  }
  if (expected.cleanHeader !== undefined) {
    const value = answer.headers[expected.cleanHeader];
    if (value === undefined) problems.push(`no ${expected.cleanHeader} header`);
    else if (/[\r\n]/.test(String(value))) problems.push(`${expected.cleanHeader} holds CR or LF`);
  }
  for (const [name, value] of Object.entries(answer.headers)) {
    if (name === 'x-injected') problems.push('a header injected by the caller (x-injected)');
    if (String(value).length > LONGEST_RESPONSE_HEADER) problems.push(`response header ${name} is ${String(value).length} characters long`);
  }
  if (expected.maxWallMs !== undefined && answer.wallMs > expected.maxWallMs) {
    problems.push(`answered after ${Math.round(answer.wallMs)} ms, expected within ${expected.maxWallMs} ms`);
  }
  return problems;
}

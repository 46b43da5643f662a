/**
 * The gateway configuration every modelgate bench server uses (built code
 * from `dist/`): one key, and routes that send each bench model to the stub
 * path that gives the wanted answer.
 *
 *   gpt-bench            chat upstream, JSON answer (passthrough)
 *   gpt-bench-s<N>       chat upstream, fast stream of N events (N in STREAM_SIZES)
 *   gpt-bench-slow<N>    chat upstream, N events, one per 100 ms (N in SLOW_SIZES)
 *   gpt-bench-endless    chat upstream, a fast stream longer than any reader reads (ENDLESS_EVENTS)
 *   gpt-bench-endless-unread  the same for clients that never read (ENDLESS_EVENTS_UNREAD, told apart by the stub)
 *   vendora-sonnet-4-6   messages upstream, JSON answer (messages passthrough; chat → translated)
 *   vendora-opus-4-6     messages upstream, fast stream of 50 events (chat → translated)
 *   vendora-haiku-4-5    messages upstream, fast stream of 5,000 events (chat → translated)
 *   vendora-sonnet-4-5   Bedrock upstream (SigV4, example credentials) as `bench-bedrock-s50`: event stream of 50 events
 *   gemini-bench-s50     Gemini upstream (AI Studio's native API) as `bench-gemini-s50`: SSE of 50 chunks, translated to chat chunks
 *   text-embedding-bench      chat upstream, embeddings as floats (relayed as they come)
 *   text-embedding-bench-b64  chat upstream, embeddings as base64 (relayed as they come)
 *   gemini-embedding-bench    Gemini upstream: `batchEmbedContents`, translated to OpenAI's list (floats, or base64 encoded by the gateway)
 *
 * `BENCH_LIMITS=memory|redis` adds limits that admit every request (requests
 * per minute and concurrent calls per key), in memory or in the Redis at `REDIS_URL`.
 */
import { bedrockUpstream, geminiUpstream, messagesUpstream, openAICompatible, redisLimitStore } from '../../dist/index.js';
import { ENDLESS_EVENTS, ENDLESS_EVENTS_UNREAD } from '../lib/wire-bodies.mjs';

const LIMIT_RULES = [{ requests: { limit: 1e12 }, concurrent: 1e9 }];

async function benchLimits(mode) {
  if (mode === 'memory') return { rules: LIMIT_RULES };
  if (mode !== 'redis') return undefined;
  const { Redis } = await import('ioredis');
  const client = new Redis(process.env.REDIS_URL);
  return { rules: LIMIT_RULES, store: redisLimitStore({ client, prefix: `bench:${process.pid}:` }) };
}

const limits = await benchLimits(process.env.BENCH_LIMITS);

export const BENCH_KEY = 'sk-bench';
export const STREAM_SIZES = [50, 5000];
export const SLOW_SIZES = [3, 30, 50];
export const TRANSLATED_STREAMS = { 'vendora-opus-4-6': 50, 'vendora-haiku-4-5': 5000 };
export const BEDROCK_STREAMS = { 'vendora-sonnet-4-5': 50 };
export const GEMINI_STREAMS = { 'gemini-bench-s50': 50 };
// AWS's documentation example keys: the stub does not check signatures, the signing is what is measured.
const BEDROCK_CREDENTIALS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };

export function gatewayOptions(stub = process.env.STUB) {
  const chat = (prefix) => openAICompatible({ baseURL: `${stub}${prefix}/v1`, apiKey: 'sk-upstream', name: 'stub-chat' });
  const messages = (prefix) => messagesUpstream({ baseURL: `${stub}${prefix}`, apiKey: 'sk-upstream', name: 'stub-messages' });
  const bedrock = bedrockUpstream({ region: 'us-east-1', endpoint: stub, credentials: BEDROCK_CREDENTIALS, name: 'stub-bedrock' });
  const gemini = geminiUpstream({ apiKey: 'bench-gemini-key', baseURL: stub, name: 'stub-gemini' });
  const routes = [
    { match: 'gpt-bench', upstream: chat('') },
    ...STREAM_SIZES.map((n) => ({ match: `gpt-bench-s${n}`, upstream: chat(`/sse/${n}/0`) })),
    ...SLOW_SIZES.map((n) => ({ match: `gpt-bench-slow${n}`, upstream: chat(`/sse/${n}/100`) })),
    { match: 'gpt-bench-endless', upstream: chat(`/sse/${ENDLESS_EVENTS}/0`) },
    { match: 'gpt-bench-endless-unread', upstream: chat(`/sse/${ENDLESS_EVENTS_UNREAD}/0`) },
    { match: 'vendora-sonnet-4-6', upstream: messages('') },
    ...Object.entries(TRANSLATED_STREAMS).map(([model, n]) => ({ match: model, upstream: messages(`/sse/${n}/0`) })),
    ...Object.entries(BEDROCK_STREAMS).map(([model, n]) => ({ match: model, upstream: bedrock, model: `bench-bedrock-s${n}` })),
    ...Object.entries(GEMINI_STREAMS).map(([model, n]) => ({ match: model, upstream: gemini, model: `bench-gemini-s${n}` })),
    { match: 'text-embedding-bench', upstream: chat('') },
    { match: 'text-embedding-bench-b64', upstream: chat('/b64') },
    { match: 'gemini-embedding-bench', upstream: gemini },
  ];
  return { auth: { keys: [BENCH_KEY] }, routes, ...(limits ? { limits } : {}) };
}

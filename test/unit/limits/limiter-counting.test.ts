/**
 * What the limits step charges the token counts (`messages.count_tokens`,
 * `responses.input_tokens`): one request on the request-rate rules, as a
 * model call; no tokens, no spend, no concurrency lease. And what it
 * counts of a Responses call whose prompt is more than its body: the
 * prompt it is given (the stored items resolved), read only by token and
 * budget rules, before the reservation.
 */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import type { LimitAdmission, LimitRequest } from '../../../src/limits/limiter.js';
import type { ChatCompletionRequest } from '../../../src/schemas/chat-request.js';
import { limiterWith, recordingStore } from './support/recording-limit-store.js';

const ROUTE = Object.freeze({ targets: [{ upstream: { format: 'chat' as const } }], onClientAbort: 'abort' as const });
/** About 2,000 tokens whatever the tokenizer: 2,000 words. */
const LONG_TEXT = 'word '.repeat(2_000);

function request(endpoint: string, body: Record<string, unknown>, extra: Partial<LimitRequest> = {}): LimitRequest {
  return {
    endpoint,
    principal: { id: 'p1' },
    body: Object.freeze({ model: 'm', ...body }),
    route: ROUTE,
    format: endpoint === 'messages.count_tokens' || endpoint === 'messages' ? 'messages' : 'chat',
    client: { signal: new AbortController().signal },
    ...extra,
  };
}

const countTokens = (content = 'Hi') => request('messages.count_tokens', { messages: [{ role: 'user', content }] });
const inputTokens = (input: unknown = 'Hi') => request('responses.input_tokens', { input });
const chatCall = () => request('chat.completions', { messages: [{ role: 'user', content: 'Hi' }] });
const ok = async (admission: LimitAdmission | undefined) => admission;

describe('the token counts under limits', () => {
  it('each count is one request on the request-rate rules, on the same counter as the model calls; past the limit → 429 in its format', async () => {
    const limiter = limiterWith({ rules: [{ requests: { limit: 3, windowSeconds: 60 } }] });
    const first = await limiter.run(countTokens(), ok);
    expect(first?.headers).toMatchObject({ 'anthropic-ratelimit-requests-limit': '3', 'anthropic-ratelimit-requests-remaining': '2' });
    expect((await limiter.run(inputTokens(), ok))?.headers).toMatchObject({ 'x-ratelimit-remaining-requests': '1' });
    expect((await limiter.run(chatCall(), ok))?.headers).toMatchObject({ 'x-ratelimit-remaining-requests': '0' });

    let ran = 0;
    const refused = await limiter.run(countTokens(), async () => void ran++).then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).status).toBe(429);
    expect((refused as GatewayError).headers).toMatchObject({ 'anthropic-ratelimit-requests-remaining': '0' });
    await expect(limiter.run(inputTokens(), ok)).rejects.toMatchObject({ status: 429 });
    expect(ran).toBe(0);
  });

  it('reserve no tokens and no spend, and hold no concurrency lease, however large the prompt', async () => {
    const { store, reserved } = recordingStore();
    const limiter = limiterWith({
      rules: [{ requests: { limit: 100 }, tokens: { limit: 10 }, budget: { limit: 0.000001 }, concurrent: 1 }],
      prices: { m: { input: 1_000, output: 1_000 } },
      store,
    });
    // A count still running: a second one (and the first's own checks) take no concurrency place.
    let release!: () => void;
    const running = limiter.run(countTokens(LONG_TEXT), () => new Promise<void>((resolve) => (release = resolve)));
    await limiter.run(inputTokens(LONG_TEXT), ok);
    release();
    await running;
    expect(reserved).toHaveLength(2);
    for (const checks of reserved) expect(checks.map((check) => check.kind === 'bucket' && check.amount)).toEqual([1]);
    // The same rule still limits a model call's tokens: 10 tokens cannot hold it.
    await expect(limiter.run(chatCall(), ok)).rejects.toMatchObject({ status: 429 });
  });

  it('a count that asks to stream is still settled with its call (no usage is awaited)', async () => {
    const limiter = limiterWith({ rules: [{ requests: { limit: 10 } }] });
    const admission = await limiter.run(request('responses.input_tokens', { input: 'Hi', stream: true }), ok);
    expect(admission?.headers).toMatchObject({ 'x-ratelimit-remaining-requests': '9' });
    expect(admission?.recordUsage).toBeUndefined();
    expect(admission?.touch).toBeUndefined();
  });
});

describe('a prompt larger than the body (a Responses call with stored items)', () => {
  const resolved: ChatCompletionRequest = { model: 'm', messages: [{ role: 'user', content: LONG_TEXT }] };

  it('token rules count the prompt given, not the body; it is read once, before the reservation', async () => {
    const { store, reserved } = recordingStore();
    const limiter = limiterWith({ rules: [{ tokens: { limit: 1_000_000, count: 'input' } }], store });
    let reads = 0;
    const prompt = async () => {
      reads++;
      expect(reserved).toHaveLength(0);
      return resolved;
    };
    await limiter.run(request('responses.create', { input: [{ type: 'item_reference', id: 'msg_1' }] }, { prompt }), ok);
    expect(reads).toBe(1);
    const amount = reserved[0]!.map((check) => (check.kind === 'bucket' ? check.amount : 0))[0]!;
    expect(amount).toBeGreaterThanOrEqual(2_000);

    await limiter.run(request('responses.create', { input: [{ type: 'item_reference', id: 'msg_1' }] }), ok);
    const bodyOnly = reserved[1]!.map((check) => (check.kind === 'bucket' ? check.amount : 0))[0]!;
    expect(bodyOnly).toBeLessThan(50);
  });

  it('a token limit the body fits but the prompt does not → 429 before the call', async () => {
    const limiter = limiterWith({ rules: [{ tokens: { limit: 500, count: 'input' } }] });
    const call = request('responses.create', { input: [{ type: 'item_reference', id: 'msg_1' }] }, { prompt: async () => resolved });
    let ran = 0;
    await expect(limiter.run(call, async () => void ran++)).rejects.toMatchObject({ status: 429 });
    expect(ran).toBe(0);
  });

  it('a failing prompt (a reference that resolves to nothing) fails the call before any reservation', async () => {
    const { store, reserved } = recordingStore();
    const limiter = limiterWith({ rules: [{ tokens: { limit: 1_000 } }], store });
    const missing = new GatewayError('INVALID_REQUEST', 'Item not found.');
    const call = request('responses.create', { input: 'Hi', max_output_tokens: 10 }, { prompt: () => Promise.reject(missing) });
    await expect(limiter.run(call, ok)).rejects.toBe(missing);
    expect(reserved).toHaveLength(0);
  });

  it('request-rate rules alone never read the prompt', async () => {
    const limiter = limiterWith({ rules: [{ requests: { limit: 10 }, concurrent: 2 }] });
    let reads = 0;
    const prompt = async () => {
      reads++;
      return resolved;
    };
    await limiter.run(request('responses.create', { input: 'Hi' }, { prompt }), ok);
    expect(reads).toBe(0);
  });
});

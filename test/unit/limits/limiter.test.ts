/**
 * The limiter on its own: it takes the few fields of a model call it needs
 * (no request context), hands the call an admission (limit headers, usage
 * recorder, progress hook) to apply, refuses with the 429 before the call,
 * and settles each admitted request once.
 */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import type { LimitRule } from '../../../src/limits/limit-options.js';
import type { LimitAdmission, LimitRequest } from '../../../src/limits/limiter.js';
import { limiterWith, recordingStore } from './support/recording-limit-store.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A chat call of principal `p1` (frozen: the limiter must not write to what it is given). */
function request(overrides: Partial<LimitRequest> = {}, body: Record<string, unknown> = {}): LimitRequest {
  return Object.freeze({
    endpoint: 'chat.completions',
    principal: { id: 'p1' },
    body: Object.freeze({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], ...body }),
    route: Object.freeze({ targets: [{ upstream: { format: 'chat' as const } }], onClientAbort: 'abort' as const }),
    format: 'chat' as const,
    client: { signal: new AbortController().signal },
    ...overrides,
  });
}

const REQUESTS: LimitRule = { requests: { limit: 10 } };

describe('createLimiter().run', () => {
  it('hands an admitted non-streamed call its headers, no usage recorder and no progress hook; settles when the call ends', async () => {
    const { store, settled, releases } = recordingStore();
    const limiter = limiterWith({ rules: [{ ...REQUESTS, concurrent: 1 }], store });
    let seen: LimitAdmission | undefined;
    const result = await limiter.run(request(), async (admission) => {
      seen = admission;
      expect(settled).toHaveLength(0);
      return 'answer';
    });
    expect(result).toBe('answer');
    expect(seen?.headers).toEqual({ 'x-ratelimit-limit-requests': '10', 'x-ratelimit-remaining-requests': '9', 'x-ratelimit-reset-requests': expect.stringMatching(/s$/) });
    expect(seen?.recordUsage).toBeUndefined();
    expect(seen?.touch).toBeUndefined();
    expect(releases()).toBe(1);
  });

  it('gives the headers in the caller\'s interface', async () => {
    const limiter = limiterWith({ rules: [REQUESTS] });
    let headers: Readonly<Record<string, string>> | undefined;
    await limiter.run(request({ endpoint: 'messages', format: 'messages' }, { max_tokens: 10 }), async (admission) => {
      headers = admission?.headers;
    });
    expect(headers?.['anthropic-ratelimit-requests-limit']).toBe('10');
    expect(headers?.['anthropic-ratelimit-requests-remaining']).toBe('9');
  });

  it('hands a stream a usage recorder and a progress hook; the lease is released once, when the usage is recorded', async () => {
    const { store, releases } = recordingStore();
    const limiter = limiterWith({ rules: [{ concurrent: 1 }], store });
    let admission: LimitAdmission | undefined;
    await limiter.run(request({}, { stream: true }), async (given) => {
      admission = given;
    });
    expect(admission?.recordUsage).toBeTypeOf('function');
    expect(admission?.touch).toBeTypeOf('function');
    // The call returned (the stream is being relayed): the slot stays taken until its usage is in.
    await sleep(10);
    expect(releases()).toBe(0);
    await expect(limiter.run(request(), async () => 'second')).rejects.toMatchObject({ status: 429 });
    admission!.recordUsage!(200, { inputTokens: 3, outputTokens: 1 }, false);
    admission!.recordUsage!(200, { inputTokens: 3, outputTokens: 1 }, false);
    await sleep(10);
    expect(releases()).toBe(1);
    expect(await limiter.run(request(), async () => 'third')).toBe('third');
  });

  it('refuses with the 429 in the caller\'s format before the call, its limit headers on the error', async () => {
    const limiter = limiterWith({ rules: [{ requests: { limit: 1, windowSeconds: 3600 } }] });
    await limiter.run(request(), async () => undefined);
    let called = false;
    const refused = await limiter
      .run(request(), async () => {
        called = true;
      })
      .catch((error: unknown) => error);
    expect(called).toBe(false);
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).status).toBe(429);
    expect((refused as GatewayError).headers).toMatchObject({ 'x-ratelimit-limit-requests': '1', 'x-ratelimit-remaining-requests': '0' });
    expect(Number((refused as GatewayError).headers?.['retry-after'])).toBeGreaterThan(0);
  });

  it('runs endpoints without limits, anonymous calls and calls no rule applies to with no admission, reserving nothing', async () => {
    const { store, reserved } = recordingStore();
    const limiter = limiterWith({ rules: [{ models: 'limited-*', requests: { limit: 1 } }], store });
    const admissions: Array<LimitAdmission | undefined> = [];
    const call = async (admission: LimitAdmission | undefined) => void admissions.push(admission);
    await limiter.run(request({ endpoint: 'models.list' }), call);
    await limiter.run(request({ endpoint: undefined }), call);
    await limiter.run(request({ principal: undefined }), call);
    await limiter.run(request({ body: undefined }), call);
    await limiter.run(request(), call);
    expect(admissions).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(reserved).toHaveLength(0);
  });

  it('settles once when the call rejects or throws synchronously, and passes the failure on', async () => {
    const { store, releases } = recordingStore();
    const limiter = limiterWith({ rules: [{ concurrent: 1 }], store });
    await expect(limiter.run(request(), () => Promise.reject(new Error('upstream down')))).rejects.toThrow('upstream down');
    await expect(
      limiter.run(request({}, { stream: true }), () => {
        throw new Error('thrown at once');
      }),
    ).rejects.toThrow('thrown at once');
    await sleep(10);
    expect(releases()).toBe(2);
    expect(await limiter.run(request(), async () => 'free again')).toBe('free again');
  });

  it('counts `n` choices as upstream calls only when the first target speaks messages (the route\'s fields it reads)', async () => {
    const { store, releases } = recordingStore();
    const limiter = limiterWith({ rules: [{ concurrent: 1, tokens: { limit: 1_000_000 } }], store });
    const fanned = request({ route: { targets: [{ upstream: { format: 'messages' } }], onClientAbort: 'abort' } }, { n: 2, max_tokens: 5 });
    let admission: LimitAdmission | undefined;
    await limiter.run(fanned, async (given) => {
      admission = given;
    });
    admission!.recordUsage!(200, { inputTokens: 3, outputTokens: 1 }, false);
    await sleep(10);
    // One of two calls reported: still held.
    expect(releases()).toBe(0);
    admission!.recordUsage!(200, { inputTokens: 3, outputTokens: 1 }, false);
    await sleep(10);
    expect(releases()).toBe(1);
  });

  it('renews a running call\'s lease with a lease shorter than a second (0.2 s), so it keeps its slot past it', async () => {
    const limiter = limiterWith({ rules: [{ concurrent: 1 }], concurrencyLeaseSeconds: 0.2 });
    let end: (() => void) | undefined;
    const running = limiter.run(request(), () => new Promise<void>((resolve) => (end = resolve)));
    await sleep(700);
    await expect(limiter.run(request(), async () => undefined)).rejects.toMatchObject({ status: 429 });
    end!();
    await running;
    await expect(limiter.run(request(), async () => 'admitted')).resolves.toBe('admitted');
  });
});

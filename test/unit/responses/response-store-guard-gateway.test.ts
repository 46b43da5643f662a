/**
 * The gateway with a response store that is down: a request that asks to
 * store is answered without it within the time-out (`'open'`, said in
 * `x-modelgate-warnings` and `store: false`) or refused (`'closed'`); a
 * read it needs is a 503 naming the store; `onError` and the logger hear
 * of it; the store is left alone after a failure; the options are checked.
 */
import { createGateway, GatewayConfigError, type GatewayOptions, type GatewayResponse } from 'modelgate';
import { describe, expect, it, vi } from 'vitest';
import { STORE_ERROR_TEXT, switchableResponseStore, type SwitchableResponseStore } from '../../helpers/switchable-response-store.js';

const KEY = 'sk-unit-response-store-guard';
const TIMEOUT_MS = 150;

type Json = Record<string, any>;

function setup(overrides: Partial<GatewayOptions> = {}, store: SwitchableResponseStore = switchableResponseStore()) {
  const errors: { status: number; message: string; cause: unknown }[] = [];
  const logged: { event: unknown; message: string | undefined }[] = [];
  const logger = { info() {}, warn() {}, debug() {}, error: (object: Record<string, unknown>, message?: string) => logged.push({ event: object.event, message }), child: () => logger };
  const gateway = createGateway({
    auth: { keys: [KEY] },
    responseStore: store,
    responses: { storeTimeoutMs: TIMEOUT_MS, storeRetryMs: 60_000 },
    onError: ({ error }) => errors.push({ status: error.status, message: error.message, cause: error.cause }),
    logger,
    ...overrides,
  });
  const call = (method: string, url: string, body?: Json): Promise<GatewayResponse> =>
    gateway.handle({ method, url, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body, signal: new AbortController().signal });
  return { gateway, store, errors, logged, call, create: (body: Json) => call('POST', '/v1/responses', { model: 'gpt-4o-mini', input: 'Hi.', ...body }) };
}

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work;
  return { value, ms: performance.now() - started };
}

async function streamText(response: GatewayResponse): Promise<string> {
  if (response.type !== 'sse') throw new Error(`expected a stream, got ${response.status}`);
  let text = '';
  for await (const chunk of response.body) text += Buffer.from(chunk).toString();
  return text;
}

describe('a Responses call while the response store is down', () => {
  it("'open' (default): answered without storing, within the time-out; then the store is left alone", async () => {
    const { store, errors, logged, create } = setup();
    // Warm: the first call loads the simulator, which is not what is measured.
    expect((await create({})).status).toBe(200);
    store.modes['*'] = 'hang';
    const first = await timed(create({}));
    expect(first.value.status).toBe(200);
    expect(first.ms).toBeLessThan(TIMEOUT_MS + 1000);
    expect(first.value.headers['x-modelgate-warnings']).toContain('not stored');
    expect((first.value as { body: Json }).body.store).toBe(false);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ status: 503, message: expect.stringContaining('response store') });
    expect(logged).toEqual([{ event: 'store_failed', message: expect.stringContaining('response store') }]);

    const reached = store.calls.length;
    const second = await timed(create({}));
    expect(second.value.status).toBe(200);
    // Left alone: nothing reaches the store (so no second time-out is waited for), nothing logged again.
    expect(store.calls.length).toBe(reached);
    expect(second.ms).toBeLessThan(TIMEOUT_MS + 1000);
    expect(logged).toHaveLength(1);
  });

  it("'closed': a request that asks to store is refused with 503 before the upstream is called", async () => {
    const { store, call } = setup({ responses: { storeTimeoutMs: TIMEOUT_MS, onStoreError: 'closed' } });
    store.modes['*'] = 'fail';
    const refused = await call('POST', '/v1/responses', { model: 'gpt-4o-mini', input: 'Hi.' });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(JSON.stringify((refused as { body: unknown }).body)).toContain('response store is unavailable');
    // store: false needs no store: answered.
    expect((await call('POST', '/v1/responses', { model: 'gpt-4o-mini', input: 'Hi.', store: false })).status).toBe(200);
  });

  it('a previous_response_id turn → 503 with retry-after naming the store, never its own text; onError hears of it', async () => {
    const { store, errors, create } = setup();
    const first = await create({});
    const id = (first as { body: Json }).body.id as string;
    store.modes['*'] = 'fail';
    const next = await create({ previous_response_id: id, input: 'And then?' });
    expect(next.status).toBe(503);
    expect(next.headers['retry-after']).toBe('60');
    const text = JSON.stringify((next as { body: unknown }).body);
    expect(text).toContain('response store');
    expect(text).not.toContain('10.11.12.13');
    expect(errors.at(-1)).toMatchObject({ status: 503 });
    expect(String((errors.at(-1)!.cause as Error).cause)).toContain(STORE_ERROR_TEXT);
  });

  it('GET /v1/responses/{id} → 503 while the store is down', async () => {
    const { store, call } = setup();
    store.modes['*'] = 'fail';
    const response = await call('GET', '/v1/responses/resp_abc');
    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toBeDefined();
  });

  it('a put that does not answer delays the answer by the time-out at most, and says it was not stored', async () => {
    const { store, errors, create } = setup();
    expect((await create({})).status).toBe(200);
    store.modes.put = 'hang';
    const answer = await timed(create({}));
    expect(answer.value.status).toBe(200);
    expect(answer.ms).toBeLessThan(TIMEOUT_MS + 1000);
    expect(answer.value.headers['x-modelgate-warnings']).toContain('not stored');
    expect((answer.value as { body: Json }).body.store).toBe(false);
    expect(errors).toEqual([expect.objectContaining({ status: 503 })]);
  });

  it("a streamed answer's terminal event is held by the time-out at most when its put does not answer", async () => {
    const { store, errors, create } = setup();
    expect((await create({})).status).toBe(200);
    store.modes.put = 'hang';
    const response = await create({ stream: true });
    const streamed = await timed(streamText(response));
    expect(streamed.value).toContain('response.completed');
    expect(streamed.ms).toBeLessThan(TIMEOUT_MS + 1000);
    expect(errors).toEqual([expect.objectContaining({ status: 503 })]);
  });
});

describe('the responses store options', () => {
  const make = (responses: unknown) => () => createGateway({ auth: { keys: [KEY] }, responses } as GatewayOptions);

  it('refuses what they cannot be, saying what to give', () => {
    expect(make({ storeTimeoutMs: 0 })).toThrow(GatewayConfigError);
    expect(make({ storeTimeoutMs: 0 })).toThrow(/storeTimeoutMs.*must be an integer from 1/);
    expect(make({ storeRetryMs: -1 })).toThrow(/storeRetryMs.*must be an integer from 0/);
    expect(make({ onStoreError: 'fail' })).toThrow(/onStoreError.*"open" or "closed"/);
    expect(make({ storeTimeoutMs: 500, storeRetryMs: 0, onStoreError: 'closed' })).not.toThrow();
  });

  it('a logger that throws does not change the answer', async () => {
    const logger = { info() {}, warn() {}, debug() {}, error: vi.fn(() => { throw new Error('log down'); }), child: () => logger };
    const { store, create } = setup({ logger });
    store.modes['*'] = 'fail';
    expect((await create({})).status).toBe(200);
    expect(logger.error).toHaveBeenCalled();
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bedrockUpstream, isGatewayError, type Upstream, type UpstreamResponse } from 'modelgate';
import { type BedrockStub, chunkFrame, exceptionFrame, framesOf, REGION, splitEvery, startBedrockStub, streamEvents } from '../../helpers/bedrock-stub.js';
import { BedrockSseBody, decodeBedrockStream } from '../../../src/upstreams/bedrock/bedrock-stream.js';

const KEYS = { accessKeyId: 'AKIDSTREAM000001', secretAccessKey: 'stream-secret-0123456789abcdef' };
const MODEL = 'anthropic.claude-sonnet-4-6-v1:0';
const EVENTS = streamEvents('Frames become server-sent events, ünïcödé included.');

/** The SSE text the vendor's own API sends for `events` (PROTOCOLS A.5): one `event:` and one `data:` line each. */
function sseOf(events: readonly unknown[]): string {
  return events.map((event) => `event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

async function readAll(response: UpstreamResponse): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

describe('bedrockUpstream: the response stream as messages SSE', () => {
  let stub: BedrockStub;
  let upstream: Upstream;
  const send = (): Promise<UpstreamResponse> =>
    upstream.send({ operation: 'messages', stream: true, body: { model: MODEL, max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Hi' }] }, headers: {}, signal: new AbortController().signal });

  beforeAll(async () => {
    stub = await startBedrockStub({ credentials: [KEYS] });
    upstream = bedrockUpstream({ region: REGION, endpoint: stub.url, credentials: KEYS });
  });
  afterAll(async () => {
    await upstream.close?.();
    await stub.close();
  });
  afterEach(() => {
    stub.requests.length = 0;
    stub.script.length = 0;
  });

  it('calls invoke-with-response-stream, signed, without `stream` in the body', async () => {
    const response = await send();
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream');
    await readAll(response);
    const [request] = stub.requests;
    expect(request?.authProblem).toBeUndefined();
    expect(request?.url).toBe('/model/anthropic.claude-sonnet-4-6-v1%3A0/invoke-with-response-stream');
    expect(request?.headers.accept).toBe('application/vnd.amazon.eventstream');
    expect(JSON.parse(request!.body)).not.toHaveProperty('stream');
  });

  it.each([
    ['one write per frame', () => EVENTS.map((event) => chunkFrame(event))],
    ['every frame in one write', () => [framesOf(EVENTS)]],
    ['1-byte writes', () => splitEvery(framesOf(EVENTS), 1).slice(0, 300).concat([framesOf(EVENTS).subarray(300)])],
    ['7-byte writes across frame boundaries', () => splitEvery(framesOf(EVENTS), 7)],
  ])('decodes frames sent as %s', async (_name, writes) => {
    stub.script.push({ kind: 'writes', writes: writes(), delayMs: 1 });
    expect(await readAll(await send())).toBe(sseOf(EVENTS));
  });

  it('an exception frame after content ends the stream with a messages error event', async () => {
    stub.script.push({ kind: 'writes', writes: [framesOf(EVENTS.slice(0, 3)), exceptionFrame('modelStreamErrorException', 'The model stream failed.')] });
    const text = await readAll(await send());
    expect(text).toBe(`${sseOf(EVENTS.slice(0, 3))}event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'The model stream failed.' } })}\n\n`);
  });

  it.each([
    ['throttlingException', 429, 'rate_limit_error'],
    ['serviceUnavailableException', 529, 'overloaded_error'],
    ['validationException', 400, 'invalid_request_error'],
  ])('a %s before any content is an HTTP %i (so retries and fallbacks apply)', async (exception, status, type) => {
    stub.script.push({ kind: 'writes', writes: [exceptionFrame(exception, 'Too many requests, please wait.')] });
    const response = await send();
    expect(response.status).toBe(status);
    expect(JSON.parse(await readAll(response))).toEqual({ type: 'error', error: { type, message: 'Too many requests, please wait.' } });
  });

  it('a frame that fails its CRC fails the stream with a 502 UPSTREAM_ERROR', async () => {
    const frames = framesOf(EVENTS);
    const corrupt = Buffer.from(frames);
    const second = chunkFrame(EVENTS[0]).byteLength;
    corrupt[second + 20] = corrupt[second + 20]! ^ 0xff;
    stub.script.push({ kind: 'writes', writes: [corrupt] });
    const response = await send();
    const failure = await readAll(response).catch((error: unknown) => error);
    expect(isGatewayError(failure) && failure.code).toBe('UPSTREAM_ERROR');
    expect((failure as Error).message).toMatch(/CRC/);
  });

  it('a corrupt prelude (an absurd length) fails at once instead of waiting for gigabytes', async () => {
    const bad = Buffer.from(chunkFrame(EVENTS[0]));
    bad.writeUInt32BE(0xfffffff0, 0);
    stub.script.push({ kind: 'writes', writes: [bad] });
    const failure = await send()
      .then(readAll)
      .catch((error: unknown) => error);
    expect(isGatewayError(failure) && failure.code).toBe('UPSTREAM_ERROR');
  });

  it('EOF without message_stop ends the body without inventing one (the relay reports the cut)', async () => {
    stub.script.push({ kind: 'writes', writes: [framesOf(EVENTS.slice(0, 4))] });
    const text = await readAll(await send());
    expect(text).toBe(sseOf(EVENTS.slice(0, 4)));
    expect(text).not.toContain('message_stop');
  });

  it('EOF inside a frame fails the stream', async () => {
    const frames = framesOf(EVENTS.slice(0, 2));
    stub.script.push({ kind: 'writes', writes: [frames.subarray(0, frames.byteLength - 5)] });
    const failure = await send()
      .then(readAll)
      .catch((error: unknown) => error);
    expect(isGatewayError(failure) && failure.code).toBe('UPSTREAM_ERROR');
  });
});

describe('decodeBedrockStream: the events of one upstream read go out as one chunk', () => {
  async function* reads(...chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
    for (const chunk of chunks) yield chunk;
  }
  const identity = (text: string): string => text;
  async function bodyChunks(...chunks: Uint8Array[]): Promise<string[]> {
    const items = decodeBedrockStream(reads(...chunks), 'bedrock');
    const first = await items.next();
    const out: string[] = [];
    for await (const chunk of new BedrockSseBody(first.done ? undefined : first.value, items, identity, () => undefined)) out.push(Buffer.from(chunk).toString('utf8'));
    return out;
  }

  it('all frames in one read: one chunk holding every event, in order', async () => {
    expect(await bodyChunks(framesOf(EVENTS))).toEqual([sseOf(EVENTS)]);
  });

  it('frames split across reads: one chunk per read that completes frames, none for a read inside one', async () => {
    const first = framesOf(EVENTS.slice(0, 3));
    const second = framesOf(EVENTS.slice(3));
    // The last 10 bytes of the first three frames arrive with the rest: that read completes four frames and more.
    const cut = first.byteLength - 10;
    const chunks = await bodyChunks(first.subarray(0, cut), Buffer.concat([first.subarray(cut), second.subarray(0, 5)]), second.subarray(5));
    expect(chunks).toEqual([sseOf(EVENTS.slice(0, 2)), sseOf(EVENTS.slice(2, 3)), sseOf(EVENTS.slice(3))]);
  });

  it('an exception in the middle of a read: the events before it in one chunk, then its error event, then the end', async () => {
    const chunks = await bodyChunks(Buffer.concat([framesOf(EVENTS.slice(0, 3)), exceptionFrame('modelStreamErrorException', 'The model stopped.'), framesOf(EVENTS.slice(3))]));
    expect(chunks).toHaveLength(2);
    expect(chunks[0]).toBe(sseOf(EVENTS.slice(0, 3)));
    expect(chunks[1]).toMatch(/^event: error\ndata: \{"type":"error","error":\{"type":"api_error","message":"The model stopped\."\}/);
  });
});

/**
 * The Gemini stub and its fixtures, read by Google's own client
 * (`@google/genai`): if the official client parses every fixture as a
 * Gemini answer (text, thoughts, calls with signatures, usage, a blocked
 * prompt, errors), the stub is shaped like the real API for the tests that
 * use it. Also the stub's own refusals (key, unknown field, signatures).
 */
import { ApiError, GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { geminiChunks, geminiJson } from '../helpers/gemini-fixtures.js';
import { type GeminiStub, SKIP_SIGNATURE, startGeminiStub, stubEmbedding } from '../helpers/gemini-stub.js';

const KEY = 'AIzaSy-stub-key-0123456789';
let stub: GeminiStub;
let ai: GoogleGenAI;

beforeAll(async () => {
  stub = await startGeminiStub({ keys: [KEY] });
  ai = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: stub.baseURL } });
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.requests.length = 0;
  stub.script.length = 0;
  stub.embedScript.length = 0;
});

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

describe('the official client reads the stub', () => {
  it('answers generateContent on the AI Studio path with the API key header', async () => {
    const response = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Bonjour' });
    expect(response.text).toBe('Gemini says: Bonjour');
    expect(stub.requests[0]!.url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(stub.requests[0]!.headers['x-goog-api-key']).toBe(KEY);
  });

  it('parses a whole answer with thoughts, text, a signature and usage', async () => {
    stub.script.push({ kind: 'json', body: geminiJson('answer-text-thoughts') });
    const response = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'café?' });
    // `text` leaves the thought parts out, as the client documents.
    expect(response.text).toBe('Café culture in 日本 is quiet and precise ☕️🍰.');
    const parts = response.candidates![0]!.content!.parts!;
    expect(parts[0]!.thought).toBe(true);
    expect(parts[1]!.thoughtSignature).toMatch(/^CiQB/);
    expect(response.usageMetadata).toMatchObject({ promptTokenCount: 1180, cachedContentTokenCount: 1024, candidatesTokenCount: 30, thoughtsTokenCount: 154, toolUsePromptTokenCount: 38 });
    expect(response.candidates![0]!.finishReason).toBe('STOP');
  });

  it('parses parallel calls of one function, the signature on the first only', async () => {
    stub.script.push({ kind: 'json', body: geminiJson('answer-parallel-calls') });
    const response = await ai.models.generateContent({ model: 'gemini-3-pro-preview', contents: 'Weather in Paris and Tokyo?' });
    expect(response.functionCalls).toEqual([
      { name: 'get_weather', args: { city: 'Paris', unit: 'celsius' }, id: 'k3v8q1zt' },
      { name: 'get_weather', args: { city: 'Tokyo', unit: 'celsius' }, id: 'p0x2m7rd' },
    ]);
    const calls = response.candidates![0]!.content!.parts!.filter((part) => part.functionCall);
    expect(calls.map((part) => typeof part.thoughtSignature)).toEqual(['string', 'undefined']);
  });

  it('parses a blocked prompt as promptFeedback without candidates', async () => {
    stub.script.push({ kind: 'json', body: geminiJson('answer-blocked-prompt') });
    const response = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' });
    expect(response.candidates).toBeUndefined();
    expect(response.promptFeedback?.blockReason).toBe('PROHIBITED_CONTENT');
  });

  it('parses the empty MAX_TOKENS and malformed-call answers', async () => {
    stub.script.push({ kind: 'json', body: geminiJson('answer-max-tokens-empty') }, { kind: 'json', body: geminiJson('answer-malformed-call') });
    const empty = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' });
    expect(empty.candidates![0]!.finishReason).toBe('MAX_TOKENS');
    expect(empty.usageMetadata?.thoughtsTokenCount).toBe(499);
    const malformed = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' });
    expect(malformed.candidates![0]!.finishReason).toBe('MALFORMED_FUNCTION_CALL');
  });

  it('streams text with thoughts on the alt=sse path; the last chunk holds the signature and the full usage', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-text-thoughts') });
    const chunks = await collect(await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'café?' }));
    expect(stub.requests[0]!.url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(chunks).toHaveLength(4);
    expect(chunks.map((chunk) => chunk.text ?? '').join('')).toBe('Café culture in 日本 is quiet and precise ☕️🍰.');
    expect(chunks[0]!.candidates![0]!.content!.parts![0]!.thought).toBe(true);
    expect(chunks[3]!.candidates![0]!.content!.parts![0]!.thoughtSignature).toMatch(/^CiQB/);
    expect(chunks[3]!.usageMetadata).toMatchObject({ promptTokenCount: 1210, candidatesTokenCount: 38, thoughtsTokenCount: 154, cachedContentTokenCount: 1024, totalTokenCount: 1402 });
  });

  it('streams parallel calls whole, in one chunk', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-parallel-calls') });
    const chunks = await collect(await ai.models.generateContentStream({ model: 'gemini-3-pro-preview', contents: 'Weather?' }));
    expect(chunks[1]!.functionCalls?.map((call) => call.args?.city)).toEqual(['Paris', 'Tokyo']);
    expect(chunks[1]!.candidates![0]!.content!.parts![0]!.thoughtSignature).toMatch(/^CiQB/);
  });

  it('streams a blocked prompt and a SAFETY finish', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-blocked-prompt') }, { kind: 'sse', chunks: geminiChunks('stream-safety') });
    const blocked = await collect(await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'x' }));
    expect(blocked).toHaveLength(1);
    expect(blocked[0]!.promptFeedback?.blockReason).toBe('PROHIBITED_CONTENT');
    const safety = await collect(await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'x' }));
    expect(safety.at(-1)!.candidates![0]!.finishReason).toBe('SAFETY');
  });

  it('reads the mid-stream error event as an ApiError of its code', async () => {
    stub.script.push({ kind: 'sse', chunks: geminiChunks('stream-mid-error') });
    const stream = await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'x' });
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const chunk of stream) seen.push(chunk.text ?? '');
    })().catch((error: unknown) => error);
    expect(seen).toEqual(['The first part of the answer']);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(500);
  });

  it('reads the error fixtures as ApiErrors of their status', async () => {
    for (const [name, status] of [['error-rate-limited', 429], ['error-overloaded', 503]] as const) {
      stub.script.push({ kind: 'json', status, body: geminiJson(name) });
      const failure = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ApiError);
      expect((failure as ApiError).status).toBe(status);
    }
  });

  it('embeds through batchEmbedContents with deterministic vectors of the asked dimensions', async () => {
    const response = await ai.models.embedContent({ model: 'gemini-embedding-001', contents: ['alpha', 'beta'], config: { outputDimensionality: 16 } });
    expect(stub.requests[0]!.url).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(response.embeddings!.map((embedding) => embedding.values)).toEqual([stubEmbedding('alpha', 16), stubEmbedding('beta', 16)]);
    const norm = Math.hypot(...response.embeddings![0]!.values!);
    expect(norm).toBeCloseTo(1, 10);
  });
});

describe('the stub refuses as Gemini does', () => {
  it('refuses a wrong key with API_KEY_INVALID, as the fixture says', async () => {
    const other = new GoogleGenAI({ apiKey: 'AIzaSy-wrong', httpOptions: { baseUrl: stub.baseURL } });
    const failure = await other.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' }).catch((error: unknown) => error);
    expect((failure as ApiError).status).toBe(400);
    expect(JSON.parse((failure as ApiError).message)).toMatchObject({ error: { status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] } });
    expect(geminiJson('error-api-key-invalid')).toMatchObject({
      error: { code: 400, status: 'INVALID_ARGUMENT', details: expect.arrayContaining([expect.objectContaining({ reason: 'API_KEY_INVALID' })]) },
    });
  });

  it('refuses an unknown top-level field', async () => {
    const response = await fetch(`${stub.baseURL}/v1beta/models/gemini-2.5-flash:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'x' }] }], model: 'gemini-2.5-flash' }),
    });
    expect(response.status).toBe(400);
    expect(stub.requests[0]!.problem).toContain('Unknown name "model"');
  });

  it('on Gemini 3, refuses a current-turn call without its signature, and one it never sent; accepts its own and the sentinel', async () => {
    const call = { functionCall: { name: 'get_weather', args: { city: 'Paris' } } };
    const history = (signature: string | undefined): unknown[] => [
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      { role: 'model', parts: [{ ...call, ...(signature === undefined ? {} : { thoughtSignature: signature }) }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temperature: 21 } } }] },
    ];
    const send = (contents: unknown[]) =>
      ai.models.generateContent({ model: 'gemini-3-pro-preview', contents: contents as never }).then(
        () => 200,
        (error: unknown) => (error as ApiError).status,
      );
    expect(await send(history(undefined))).toBe(400);
    expect(stub.requests.at(-1)!.problem).toContain('missing a thought_signature');
    expect(await send(history('Zm9yZ2Vk'))).toBe(400);
    expect(stub.requests.at(-1)!.problem).toContain('Corrupted thought signature');
    expect(await send(history(SKIP_SIGNATURE))).toBe(200);
    stub.script.push({ kind: 'json', body: geminiJson('answer-parallel-calls') });
    const first = await ai.models.generateContent({ model: 'gemini-3-pro-preview', contents: 'Weather?' });
    const signature = first.candidates![0]!.content!.parts!.find((part) => part.thoughtSignature)!.thoughtSignature!;
    expect(await send(history(signature))).toBe(200);
    // Not the current turn any more: a new user question leaves the old call's signature unchecked.
    expect(await send([...history(undefined), { role: 'model', parts: [{ text: 'Sunny.' }] }, { role: 'user', parts: [{ text: 'Thanks' }] }])).toBe(200);
  });

  it('refuses parallel calls answered in separate turns', async () => {
    const calls = [{ functionCall: { name: 'a', args: {} } }, { functionCall: { name: 'b', args: {} } }];
    const failure = await ai.models
      .generateContent({
        model: 'gemini-2.5-flash',
        contents: [
          { role: 'user', parts: [{ text: 'go' }] },
          { role: 'model', parts: calls },
          { role: 'user', parts: [{ functionResponse: { name: 'a', response: {} } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'b', response: {} } }] },
        ],
      })
      .catch((error: unknown) => error);
    expect((failure as ApiError).status).toBe(400);
    expect(stub.requests.at(-1)!.problem).toContain('number of function response parts');
  });
});

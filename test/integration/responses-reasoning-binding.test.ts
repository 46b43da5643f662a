/**
 * Sealed reasoning belongs to one caller and one model: over real HTTP
 * (node:http and Express), through the official `openai` client, against a
 * messages-format upstream on 127.0.0.1 that signs its thinking. Alice's
 * envelope is restored for Alice, byte for byte; sent by Bob, or by Alice
 * to another model, it is left out exactly as a forged one is, and the
 * response says so in `x-modelgate-warnings`. With a list of secrets,
 * envelopes sealed under an older one open until it is removed.
 */
import { randomBytes } from 'node:crypto';
import { createGateway, messagesUpstream } from 'modelgate';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAIClient } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { startStubUpstream, type StubUpstream } from '../helpers/stub-upstream.js';

const ALICE_KEY = 'sk-alice-0123456789abcdef';
const BOB_KEY = 'sk-bob-0123456789abcdef';
/** Two of the twelve, both with thinking `enabled`. */
const MODEL = 'vendora-sonnet-4-6';
const OTHER_MODEL = 'vendora-opus-4-6';
const THINKING = 'The user wants the weather in Oslo; call get_weather.';
/** Said by every response that left out an envelope, whatever the reason. */
const LEFT_OUT = /reasoning: left out 1 reasoning item whose encrypted_content did not open here/;
/** Said when the tool-use turn then runs without thinking. */
const THINKING_OFF = /thinking is off for this turn/;

const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};

interface SentMessages {
  thinking?: unknown;
  messages: { role: string; content: string | { type: string; thinking?: string; signature?: string }[] }[];
}

/** A vendor that thinks (with a fresh signature each time) and calls get_weather, then answers the tool result. */
function vendorReply(body: SentMessages, signatures: string[]) {
  const last = body.messages.at(-1);
  const answersTool = Array.isArray(last?.content) && last.content.some((block) => block.type === 'tool_result');
  const usage = { input_tokens: 20, output_tokens: 10 };
  if (answersTool) {
    return { id: 'msg_2', type: 'message', role: 'assistant', model: 'upstream', content: [{ type: 'text', text: 'Snow in Oslo.' }], stop_reason: 'end_turn', stop_sequence: null, usage };
  }
  const signature = `Eq${randomBytes(24).toString('base64')}`;
  signatures.push(signature);
  return {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'upstream',
    content: [
      { type: 'thinking', thinking: THINKING, signature },
      { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
    ],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage,
  };
}

/** A first turn: the reasoning item (sealed), the call it made, and the signature the vendor gave. */
async function firstTurn(client: OpenAI, signatures: readonly string[]) {
  const first = await client.responses.create({
    model: MODEL,
    input: 'What is the weather in Oslo?',
    tools: [weatherTool],
    reasoning: { effort: 'low' },
    include: ['reasoning.encrypted_content'],
    store: false,
  });
  const reasoning = first.output.find((item) => item.type === 'reasoning');
  const call = first.output.find((item) => item.type === 'function_call');
  if (reasoning?.type !== 'reasoning' || call?.type !== 'function_call') throw new Error('expected reasoning and a function call');
  expect(reasoning.encrypted_content).toMatch(/^mg2\./);
  return { reasoning, call, signature: signatures.at(-1)! };
}

type FirstTurn = Awaited<ReturnType<typeof firstTurn>>;

/** The next turn, sent with `client` to `model`, carrying `reasoning` back; what `vendor` received and the warnings. */
async function nextTurn(vendor: StubUpstream, client: OpenAI, model: string, turn: FirstTurn, reasoning = turn.reasoning) {
  const before = vendor.requests.length;
  const { data, response } = await client.responses
    .create({
      model,
      tools: [weatherTool],
      reasoning: { effort: 'low' },
      store: false,
      input: [
        { role: 'user', content: 'What is the weather in Oslo?' },
        reasoning,
        turn.call,
        { type: 'function_call_output', call_id: turn.call.call_id, output: 'Snow' },
      ] as OpenAI.Responses.ResponseInput,
    })
    .withResponse();
  expect(data.status).toBe('completed');
  expect(vendor.requests.length).toBe(before + 1);
  const raw = vendor.requests.at(-1)!.body;
  return { raw, sent: JSON.parse(raw) as SentMessages, warnings: response.headers.get('x-modelgate-warnings') ?? '' };
}

/** The first block of the assistant turn the vendor received: where restored thinking goes. */
function restoredBlock(sent: SentMessages): unknown {
  const assistant = sent.messages.find((message) => message.role === 'assistant');
  return Array.isArray(assistant?.content) ? assistant.content[0] : undefined;
}

/** A gateway in front of `vendor` with Alice's and Bob's keys. */
function gatewayFor(vendor: StubUpstream, reasoningSecret: string | readonly string[]) {
  return createGateway({
    auth: { keys: [{ key: ALICE_KEY, id: 'alice' }, { key: BOB_KEY, id: 'bob' }] },
    routes: [{ match: 'vendora-*', upstream: messagesUpstream({ baseURL: vendor.url, apiKey: 'sk-vendor-0123456789', name: 'vendor' }) }],
    responses: { reasoningSecret },
  });
}

describe.each(['node', 'express5'] as const)('sealed reasoning on %s', (mount) => {
  let vendor: StubUpstream;
  let app: StartedApp;
  let alice: OpenAI;
  let bob: OpenAI;
  const signatures: string[] = [];

  beforeAll(async () => {
    vendor = await startStubUpstream((request) => ({ kind: 'json', body: vendorReply(JSON.parse(request.body) as SentMessages, signatures) }));
    app = await startApp(mount, gatewayFor(vendor, randomBytes(32).toString('base64')));
    alice = openAIClient(app.url, ALICE_KEY);
    bob = openAIClient(app.url, BOB_KEY);
  });
  afterAll(async () => {
    await app.close();
    await vendor.close();
  });

  it("restores Alice's thinking for Alice: the vendor receives its exact block and signature", async () => {
    const turn = await firstTurn(alice, signatures);
    const { sent, warnings } = await nextTurn(vendor, alice, MODEL, turn);
    expect(restoredBlock(sent)).toEqual({ type: 'thinking', thinking: THINKING, signature: turn.signature });
    expect(sent.thinking).toMatchObject({ type: 'enabled' });
    expect(warnings).not.toMatch(LEFT_OUT);
  });

  it("leaves Alice's thinking out for Bob: no signature reaches the vendor, and the response says so", async () => {
    const turn = await firstTurn(alice, signatures);
    const { raw, sent, warnings } = await nextTurn(vendor, bob, MODEL, turn);
    expect(raw).not.toContain(turn.signature);
    expect(raw).not.toContain(THINKING);
    expect(raw).not.toContain('"signature"');
    expect(sent.thinking).toBeUndefined();
    expect(warnings).toMatch(LEFT_OUT);
    expect(warnings).toMatch(THINKING_OFF);
  });

  it('leaves it out when Alice sends it to another model', async () => {
    const turn = await firstTurn(alice, signatures);
    const { raw, sent, warnings } = await nextTurn(vendor, alice, OTHER_MODEL, turn);
    expect(raw).not.toContain(turn.signature);
    expect(raw).not.toContain('"signature"');
    expect(sent.thinking).toBeUndefined();
    expect(warnings).toMatch(LEFT_OUT);
  });

  it("answers Bob exactly as it answers a forged envelope: the same warnings, the same request to the vendor", async () => {
    const turn = await firstTurn(alice, signatures);
    const asBob = await nextTurn(vendor, bob, MODEL, turn);
    const sealed = turn.reasoning.encrypted_content!;
    const forged = { ...turn.reasoning, encrypted_content: `${sealed.slice(0, -6)}${sealed.slice(-6).split('').reverse().join('')}` };
    expect(forged.encrypted_content).not.toBe(sealed);
    const asForger = await nextTurn(vendor, alice, MODEL, turn, forged);
    expect(asForger.warnings).toBe(asBob.warnings);
    expect(asForger.raw).toBe(asBob.raw);
  });
});

describe('rotating reasoningSecret (node:http)', () => {
  const OLD_SECRET = randomBytes(32).toString('base64');
  const NEW_SECRET = randomBytes(32).toString('base64');
  let vendor: StubUpstream;
  const apps: StartedApp[] = [];
  const signatures: string[] = [];
  /** Clients for Alice on a gateway with the old secret, one listing [new, old], and one with the new secret alone. */
  let beforeRotation: OpenAI;
  let duringRotation: OpenAI;
  let afterRotation: OpenAI;

  beforeAll(async () => {
    vendor = await startStubUpstream((request) => ({ kind: 'json', body: vendorReply(JSON.parse(request.body) as SentMessages, signatures) }));
    for (const secret of [OLD_SECRET, [NEW_SECRET, OLD_SECRET], NEW_SECRET]) apps.push(await startApp('node', gatewayFor(vendor, secret)));
    [beforeRotation, duringRotation, afterRotation] = apps.map((app) => openAIClient(app.url, ALICE_KEY)) as [OpenAI, OpenAI, OpenAI];
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await vendor.close();
  });

  it('an envelope sealed under the old secret opens while the old secret is listed, and is left out once it is removed', async () => {
    const turn = await firstTurn(beforeRotation, signatures);
    const during = await nextTurn(vendor, duringRotation, MODEL, turn);
    expect(restoredBlock(during.sent)).toEqual({ type: 'thinking', thinking: THINKING, signature: turn.signature });
    expect(during.warnings).not.toMatch(LEFT_OUT);
    const after = await nextTurn(vendor, afterRotation, MODEL, turn);
    expect(after.raw).not.toContain(turn.signature);
    expect(after.warnings).toMatch(LEFT_OUT);
  });

  it('during the rotation the new secret seals: its envelopes open after the old secret is removed, not before the rotation', async () => {
    const turn = await firstTurn(duringRotation, signatures);
    const after = await nextTurn(vendor, afterRotation, MODEL, turn);
    expect(restoredBlock(after.sent)).toEqual({ type: 'thinking', thinking: THINKING, signature: turn.signature });
    const before = await nextTurn(vendor, beforeRotation, MODEL, turn);
    expect(before.raw).not.toContain(turn.signature);
    expect(before.warnings).toMatch(LEFT_OUT);
  });
});

/**
 * The hostile-input catalogue: adversarial requests a caller can send, each
 * with the gateway setup it needs and the answer it must get. Defined once,
 * as data, for the vitest suite (`test/integration/hostile-input.test.ts`)
 * and the bench (`bench/hostile-catalogue.mjs`, plain node on a built
 * package). Statuses come from what the interfaces promise a caller: a
 * refused bound is a 400 naming the field and the bound, a missing key a
 * 401, a valid but odd request a 200 (or the 400 of a stricter check);
 * never a 5xx, never a cut connection.
 *
 * Bodies are built lazily (the largest is about 2 MB) so importing the
 * catalogue costs nothing.
 */
import { randomUUID } from 'node:crypto';

/** @typedef {import('./hostile-case-types.js').HostileCase} HostileCase */
/** @typedef {import('./hostile-case-types.js').HostileProfile} HostileProfile */
/** @typedef {import('./hostile-case-types.js').HostileProfileName} HostileProfileName */

/** The one key every profile accepts. */
export const HOSTILE_KEY = 'sk-hostile-input';
/** Served by the simulator's chat face. */
export const CHAT_MODEL = 'gpt-4o-mini';
/** One of the catalog's models: served by the simulator's messages face. */
export const VENDOR_MODEL = 'vendora-sonnet-4-6';
/** Served, in the `admission` profile, by an upstream that takes 30 s to answer. */
export const HELD_MODEL = 'held-model';
/** The id of the 10 KB input item the `responseStore` profile stores. */
export const STORED_ITEM_ID = 'msg_hostile_stored_10k';

const MiB = 1024 * 1024;
const WORDS = 'lorem ipsum dolor sit amet, consectetur adipiscing elit. ';

/** `length` characters of plain prose. */
function prose(length) {
  return WORDS.repeat(Math.ceil(length / WORDS.length)).slice(0, length);
}

/** `length` pseudo-random lowercase letters (a fixed seed: the same text every run). */
function randomLetters(length) {
  let state = 0x2f6b_1d3a;
  let text = '';
  for (let index = 0; index < length; index++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    text += String.fromCharCode(97 + (state >>> 16) % 26);
  }
  return text;
}

/** A base64 image whose data holds a run of `count` `=` that does not end it. */
function paddedImageData(count) {
  return `${'='.repeat(count)}A`;
}

const chatBody = (extra = {}) => JSON.stringify({ model: CHAT_MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'Hello' }], ...extra });
const messagesBody = (extra = {}) => JSON.stringify({ model: VENDOR_MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'Hello' }], ...extra });
const responsesBody = (extra = {}) => JSON.stringify({ model: CHAT_MODEL, input: 'Hello', store: false, ...extra });

/** `{"k": {"k": ... 1 ...}}`, `depth` objects deep, as text (JSON.stringify would recurse). */
function nestedObjectText(depth) {
  return `${'{"k":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** A chat request text with `messages` spliced in as raw JSON text. */
function chatWithRawMessages(messagesText, model = CHAT_MODEL) {
  return `{"model":${JSON.stringify(model)},"max_tokens":16,"messages":${messagesText}}`;
}

/** A chat function tool whose parameters are `parametersText` (raw JSON). */
function chatWithRawToolParameters(parametersText) {
  return `{"model":"${CHAT_MODEL}","max_tokens":16,"messages":[{"role":"user","content":"Hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${parametersText}}}]}`;
}

/** A function tool (chat form) named `name`. */
const chatTool = (name) => ({ type: 'function', function: { name, parameters: { type: 'object', properties: {} } } });

/** A tool schema of about `bytes`, valid and shallow: many string properties. */
function wideSchema(bytes) {
  const properties = {};
  const description = prose(200);
  const count = Math.ceil(bytes / 240);
  for (let index = 0; index < count; index++) properties[`field_${index}`] = { type: 'string', description };
  return { type: 'object', properties };
}

/** A text that contains an invalid UTF-8 sequence in a JSON string. */
function invalidUtf8Body() {
  const head = Buffer.from(`{"model":"${CHAT_MODEL}","max_tokens":16,"messages":[{"role":"user","content":"bad `);
  // A lone continuation byte, an overlong slash, a truncated 3-byte sequence, an encoded surrogate.
  const bad = Buffer.from([0x80, 0xc0, 0xaf, 0xe2, 0x82, 0xed, 0xa0, 0x80, 0xff, 0xfe]);
  const tail = Buffer.from(' bytes"}]}');
  return Buffer.concat([head, bad, tail]);
}

/** @type {Readonly<Record<HostileProfileName, HostileProfile>>} */
export const HOSTILE_PROFILES = {
  /** The default gateway: the embedded simulator serves every model. */
  default: { options: () => ({}) },
  /** A token rule: every model call is estimated (its images counted) before it is made. */
  tokenLimit: { options: () => ({ limits: { rules: [{ tokens: { limit: 1_000_000_000 } }] } }) },
  /** A two-star glob route (the backtracking kind) before a catch-all. */
  globRoute: {
    options: ({ createSimulator }) => {
      const chat = createSimulator().upstreams.chat;
      return { routes: [{ match: '*-*-mini', upstream: chat }, { match: '*', upstream: chat }] };
    },
  },
  /** A response store holding one response whose input item is 10 KB of text. */
  responseStore: {
    options: ({ memoryResponseStore }) => ({ responseStore: memoryResponseStore() }),
    setup: [
      {
        method: 'POST',
        path: '/v1/responses',
        body: () =>
          JSON.stringify({
            model: CHAT_MODEL,
            store: true,
            input: [{ type: 'message', id: STORED_ITEM_ID, role: 'user', content: prose(10_000) }],
          }),
      },
    ],
  },
  /**
   * One admission place and one queue slot. `HELD_MODEL` is served by an
   * upstream that answers only after 30 s, so a background call to it holds
   * the place while a case runs; other models answer at once.
   */
  admission: {
    options: ({ createSimulator }) => ({
      routes: [
        { match: HELD_MODEL, upstream: createSimulator({ pace: { firstTokenMs: 30_000 } }).upstreams.chat },
        { match: '*', upstream: createSimulator().upstreams.chat },
      ],
      admission: { maxInFlight: 1, queueMs: 2_000, maxQueued: 1 },
    }),
  },
  /** Parameters the upstream format cannot express are dropped and listed in a response header. */
  dropUnsupported: { options: () => ({ dropUnsupportedParams: true }) },
};

/** The call that holds the `admission` profile's only place. */
const HOLD_THE_PLACE = { method: 'POST', path: '/v1/chat/completions', body: () => chatBody({ model: HELD_MODEL }) };

/** @type {readonly HostileCase[]} */
export const HOSTILE_CASES = [
  // Base64 with a long run of `=` not at its end: counted as an image by every token count.
  ...[40_000, 400_000].flatMap((count) => {
    const size = `${count / 1000} KB`;
    return [
      {
        name: `responses input_tokens: ${size} of "=" inside base64 image data`,
        profile: 'default',
        method: 'POST',
        path: '/v1/responses/input_tokens',
        body: () =>
          JSON.stringify({
            model: CHAT_MODEL,
            input: [{ role: 'user', content: [{ type: 'input_image', image_url: `data:image/png;base64,${paddedImageData(count)}` }] }],
          }),
        expect: { status: [200, 400], format: 'openai' },
        worst: count === 400_000,
      },
      {
        name: `messages count_tokens: ${size} of "=" inside base64 image data`,
        profile: 'default',
        method: 'POST',
        path: '/v1/messages/count_tokens',
        auth: 'x-api-key',
        body: () =>
          JSON.stringify({
            model: VENDOR_MODEL,
            messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: paddedImageData(count) } }] }],
          }),
        expect: { status: [200, 400], format: 'messages' },
        worst: count === 400_000,
      },
      {
        name: `chat under a token limit: ${size} of "=" inside a base64 data URL`,
        profile: 'tokenLimit',
        method: 'POST',
        path: '/v1/chat/completions',
        body: () =>
          JSON.stringify({
            model: CHAT_MODEL,
            max_tokens: 16,
            messages: [{ role: 'user', content: [{ type: 'text', text: 'Describe it.' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${paddedImageData(count)}` } }] }],
          }),
        expect: { status: [200, 400], format: 'openai' },
      },
    ];
  }),

  // Arrays far past their bounds, invalid element by element.
  {
    name: 'chat: 1,000,000 invalid messages in a 2 MB body',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => chatWithRawMessages(`[${'1,'.repeat(999_999)}1]`),
    expect: { status: 400, format: 'openai', names: 'messages', bound: 10_000 },
    worst: true,
  },
  {
    name: 'messages: 1,000,000 invalid messages in a 2 MB body',
    profile: 'default',
    method: 'POST',
    path: '/v1/messages',
    auth: 'x-api-key',
    body: () => chatWithRawMessages(`[${'1,'.repeat(999_999)}1]`, VENDOR_MODEL),
    expect: { status: 400, format: 'messages', names: 'messages', bound: 10_000 },
  },
  {
    name: 'chat: 10,001 messages',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => chatBody({ messages: Array.from({ length: 10_001 }, () => ({ role: 'user', content: 'Hi' })) }),
    expect: { status: 400, format: 'openai', names: 'messages', bound: 10_000 },
  },
  {
    name: 'responses: 10,001 input items',
    profile: 'default',
    method: 'POST',
    path: '/v1/responses',
    body: () => responsesBody({ input: Array.from({ length: 10_001 }, () => ({ role: 'user', content: 'Hi' })) }),
    expect: { status: 400, format: 'openai', names: 'input', bound: 10_000 },
  },
  {
    name: 'messages: 50,001 content parts',
    profile: 'default',
    method: 'POST',
    path: '/v1/messages',
    auth: 'x-api-key',
    body: () => messagesBody({ messages: [{ role: 'user', content: Array.from({ length: 50_001 }, () => ({ type: 'text', text: 'a' })) }] }),
    expect: { status: 400, format: 'messages', names: 'content', bound: 50_000 },
  },
  {
    name: 'chat: 1,001 tools',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => chatBody({ tools: Array.from({ length: 1_001 }, (_, index) => chatTool(`tool_${index}`)) }),
    expect: { status: 400, format: 'openai', names: 'tools', bound: 1_000 },
  },
  {
    name: 'chat: a 300-character tool name',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => chatBody({ tools: [chatTool('t'.repeat(300))] }),
    expect: { status: 400, format: 'openai', names: 'tools', bound: 256 },
  },
  {
    name: 'messages: a 1 MiB tool name',
    profile: 'default',
    method: 'POST',
    path: '/v1/messages',
    auth: 'x-api-key',
    body: () => messagesBody({ tools: [{ name: 'n'.repeat(MiB), input_schema: { type: 'object' } }] }),
    expect: { status: 400, format: 'messages', names: 'tools', bound: 256 },
  },

  // Stored items referenced many times over.
  {
    name: 'responses: 2,000 item_references to one stored 10 KB item',
    profile: 'responseStore',
    method: 'POST',
    path: '/v1/responses',
    body: () => responsesBody({ input: Array.from({ length: 2_000 }, () => ({ type: 'item_reference', id: STORED_ITEM_ID })) }),
    expect: { status: 400, format: 'openai', names: 'input', bound: 1_000 },
    worst: true,
  },
  {
    name: 'responses input_tokens: 2,000 item_references to one stored 10 KB item',
    profile: 'responseStore',
    method: 'POST',
    path: '/v1/responses/input_tokens',
    body: () => JSON.stringify({ model: CHAT_MODEL, input: Array.from({ length: 2_000 }, () => ({ type: 'item_reference', id: STORED_ITEM_ID })) }),
    expect: { status: 400, format: 'openai', names: 'input', bound: 1_000 },
  },
  {
    name: 'responses: 900 item_references to one stored 10 KB item (within bounds)',
    profile: 'responseStore',
    method: 'POST',
    path: '/v1/responses',
    body: () => responsesBody({ input: Array.from({ length: 900 }, () => ({ type: 'item_reference', id: STORED_ITEM_ID })) }),
    // 9 MB of resolved input that the simulator, in the same process, tokenizes (about 50 ms per MB unloaded).
    expect: { status: 200, format: 'openai', maxBlockMs: 1_000 },
  },

  // Model ids: length bound before any matching, caching or labelling.
  {
    name: 'chat: a 200,000-character model id against the route glob *-*-mini',
    profile: 'globRoute',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => chatBody({ model: 'a-'.repeat(100_000) }),
    expect: { status: 400, format: 'openai', names: 'model', bound: 256 },
    worst: true,
  },
  {
    name: 'chat: a distinct 1 MiB model id',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => chatBody({ model: `${randomUUID()}-${'m'.repeat(MiB)}` }),
    expect: { status: 400, format: 'openai', names: 'model', bound: 256 },
  },
  {
    name: 'messages: a distinct 1 MiB model id',
    profile: 'default',
    method: 'POST',
    path: '/v1/messages',
    auth: 'x-api-key',
    body: () => messagesBody({ model: `${randomUUID()}-${'m'.repeat(MiB)}` }),
    expect: { status: 400, format: 'messages', names: 'model', bound: 256 },
  },
  {
    name: 'responses input_tokens: a distinct 1 MiB model id',
    profile: 'default',
    method: 'POST',
    path: '/v1/responses/input_tokens',
    body: () => JSON.stringify({ model: `${randomUUID()}-${'m'.repeat(MiB)}`, input: 'Hi' }),
    expect: { status: 400, format: 'openai', names: 'model', bound: 256 },
  },

  // Nesting.
  {
    name: 'chat: 50,000 levels of nesting in a tool schema',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => chatWithRawToolParameters(`{"type":"object","properties":{"a":${nestedObjectText(50_000)}}}`),
    expect: { status: 400, format: 'openai', names: 'tools', bound: 128 },
    worst: true,
  },
  {
    name: 'messages: 50,000 levels of nested arrays in messages',
    profile: 'default',
    method: 'POST',
    path: '/v1/messages',
    auth: 'x-api-key',
    body: () => chatWithRawMessages(`[${'['.repeat(50_000)}${']'.repeat(50_000)}]`, VENDOR_MODEL),
    expect: { status: 400, format: 'messages', names: 'messages', bound: 128 },
  },
  {
    name: 'chat: a 1 MB tool schema, valid and shallow',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => chatBody({ tools: [{ type: 'function', function: { name: 'fill_form', parameters: wideSchema(MiB) } }] }),
    expect: { status: [200, 400], format: 'openai' },
  },

  // Header values built from caller text.
  {
    name: 'responses: CR LF in a tool type, with dropUnsupportedParams',
    profile: 'dropUnsupported',
    method: 'POST',
    path: '/v1/responses',
    body: () => responsesBody({ tools: [{ type: 'web_search\r\nx-injected: 1' }] }),
    expect: { status: 200, format: 'openai', cleanHeader: 'x-modelgate-dropped-params' },
  },

  // Work done before authentication.
  {
    name: 'chat without any key while the only admission place is taken and the queue slot free',
    profile: 'admission',
    method: 'POST',
    path: '/v1/chat/completions',
    auth: 'none',
    background: HOLD_THE_PLACE,
    body: () => chatBody(),
    expect: { status: 401, format: 'openai', maxWallMs: 1_000 },
  },
  {
    name: 'chat with a 12 KB bogus authorization header',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    auth: 'none',
    headers: { authorization: `Bearer ${'k'.repeat(12_000)}` },
    body: () => chatBody(),
    expect: { status: 401, format: 'openai' },
  },
  {
    name: 'messages without a key, with a 2 MB body',
    profile: 'default',
    method: 'POST',
    path: '/v1/messages',
    auth: 'none',
    body: () => messagesBody({ messages: [{ role: 'user', content: prose(2_000_000) }] }),
    expect: { status: 401, format: 'messages' },
  },

  // Huge strings in fields without a bound of their own.
  {
    name: 'chat: a 1 MB user',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => chatBody({ user: 'u'.repeat(MiB) }),
    expect: { status: [200, 400], format: 'openai' },
  },
  {
    name: 'responses: a 1 MB metadata value (512 characters at most)',
    profile: 'default',
    method: 'POST',
    path: '/v1/responses',
    body: () => responsesBody({ metadata: { note: 'v'.repeat(MiB) } }),
    expect: { status: 400, format: 'openai', names: 'metadata' },
  },
  {
    name: 'chat: a 1 MB stop sequence',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => chatBody({ stop: ['s'.repeat(MiB)] }),
    expect: { status: [200, 400], format: 'openai' },
  },
  {
    name: 'chat: 2 MB of message text',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => chatBody({ messages: [{ role: 'user', content: prose(2_000_000) }] }),
    expect: { status: 200, format: 'openai' },
  },

  {
    name: 'chat: 1 MB of random letters (text the tokenizer has never seen)',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => chatBody({ messages: [{ role: 'user', content: randomLetters(1_000_000) }] }),
    expect: { status: 200, format: 'openai' },
  },
  {
    name: 'messages count_tokens: 1 MB of random letters',
    profile: 'default',
    method: 'POST',
    path: '/v1/messages/count_tokens',
    auth: 'x-api-key',
    body: () => JSON.stringify({ model: VENDOR_MODEL, messages: [{ role: 'user', content: randomLetters(1_000_000) }] }),
    expect: { status: 200, format: 'messages' },
  },
  {
    name: 'chat: 1,000 tools and 1 MB of user text naming none of them',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => chatBody({ tools: Array.from({ length: 1_000 }, (_, index) => chatTool(`tool_${index}`)), messages: [{ role: 'user', content: prose(1_000_000) }] }),
    expect: { status: 200, format: 'openai' },
  },
  {
    name: 'chat: 1,000 tools, all named in 1 MB of text with a fenced block',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () =>
      JSON.stringify({
        model: CHAT_MODEL,
        max_tokens: 100_000,
        tools: Array.from({ length: 1_000 }, (_, index) => ({ type: 'function', function: { name: `tool_${index}`, parameters: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } } })),
        messages: [{ role: 'user', content: `${Array.from({ length: 1_000 }, (_, index) => `use tool_${index} now.`).join(' ')} \`\`\`\n${prose(1_000_000)}\n\`\`\`` }],
      }),
    expect: { status: 200, format: 'openai' },
  },
  {
    name: 'chat: a logit_bias of 300,000 keys',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => chatBody({ logit_bias: Object.fromEntries(Array.from({ length: 300_000 }, (_, index) => [String(index), 'x'])) }),
    expect: { status: 400, format: 'openai', names: 'logit_bias', bound: 10_000 },
  },

  // Numbers JSON can write but a number field cannot hold.
  {
    name: 'chat: temperature 1e309 (JSON.parse makes it Infinity)',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => chatBody().replace(/}$/, ',"temperature":1e309}'),
    expect: { status: 400, format: 'openai', names: 'temperature' },
  },
  {
    name: 'chat: max_tokens 1e309',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => chatBody().replace('"max_tokens":16', '"max_tokens":1e309'),
    expect: { status: 400, format: 'openai', names: 'max_tokens' },
  },
  {
    name: 'chat: temperature -0 and top_p 1e-400 (both zero)',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => chatBody().replace(/}$/, ',"temperature":-0,"top_p":1e-400}'),
    expect: { status: [200, 400], format: 'openai' },
  },
  {
    name: 'chat: n 1e9',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => chatBody({ n: 1e9 }),
    expect: { status: 400, format: 'openai', names: 'n' },
  },

  // Text JSON.parse takes but that is odd.
  {
    name: 'chat: duplicate keys (a huge invalid messages, then a valid one)',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => `{"model":"${CHAT_MODEL}","max_tokens":16,"messages":[${'7,'.repeat(200_000)}7],"messages":[{"role":"user","content":"Hi"}]}`,
    expect: { status: [200, 400], format: 'openai' },
  },
  {
    name: 'chat: invalid UTF-8 bytes inside a string',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: invalidUtf8Body,
    expect: { status: [200, 400], format: 'openai' },
  },
  {
    name: 'messages: lone surrogates (\\ud800, \\udfff) in text and a tool name',
    profile: 'default',
    method: 'POST',
    path: '/v1/messages',
    auth: 'x-api-key',
    body: () =>
      messagesBody({
        messages: [{ role: 'user', content: 'before \ud800 middle \udfff after' }],
        tools: [{ name: 'tool\ud800', input_schema: { type: 'object' } }],
      }),
    expect: { status: [200, 400], format: 'messages' },
  },
  {
    name: 'chat: __proto__ and constructor keys at the top and nested',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () =>
      `{"model":"${CHAT_MODEL}","max_tokens":16,"__proto__":{"polluted":"top"},"constructor":{"prototype":{"polluted":"ctor"}},` +
      `"messages":[{"role":"user","content":"Hi","__proto__":{"polluted":"nested"}}],"metadata":{"__proto__":{"polluted":"meta"}},` +
      `"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"string"}}}}}]}`,
    expect: { status: [200, 400], format: 'openai' },
  },

  // Bodies that are not a request object.
  {
    name: 'chat: 1 MB of invalid JSON ([[[[...)',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => '['.repeat(MiB),
    expect: { status: 400, format: 'openai' },
  },
  {
    name: 'messages: a JSON array as the body',
    profile: 'default',
    method: 'POST',
    path: '/v1/messages',
    auth: 'x-api-key',
    body: () => `[${messagesBody()}]`,
    expect: { status: 400, format: 'messages' },
  },
  {
    name: 'chat: a JSON string as the body',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => JSON.stringify('s'.repeat(100_000)),
    expect: { status: 400, format: 'openai' },
  },
  {
    name: 'responses: an empty body',
    profile: 'default',
    method: 'POST',
    path: '/v1/responses',
    body: () => '',
    expect: { status: 400, format: 'openai' },
  },
  {
    name: 'chat: stream true on an invalid request (a JSON error, not a stream)',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () => chatBody({ stream: true, messages: 5 }),
    expect: { status: 400, format: 'openai', names: 'messages' },
  },
  {
    name: 'chat: a 1 MB base64 data URL with no comma',
    profile: 'tokenLimit',
    method: 'POST',
    path: '/v1/chat/completions',
    body: () =>
      JSON.stringify({
        model: CHAT_MODEL,
        max_tokens: 16,
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64${'A'.repeat(MiB)}` } }] }],
      }),
    expect: { status: [200, 400], format: 'openai' },
  },

  // Headers.
  {
    name: 'chat: a 12 KB x-request-id',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { 'x-request-id': 'r'.repeat(12_000) },
    body: () => chatBody(),
    expect: { status: 200, format: 'openai' },
  },
  {
    name: 'messages: a 12 KB anthropic-beta',
    profile: 'default',
    method: 'POST',
    path: '/v1/messages',
    auth: 'x-api-key',
    headers: { 'anthropic-beta': Array.from({ length: 1_000 }, (_, index) => `beta-${index}`).join(',').slice(0, 12_000) },
    body: () => messagesBody(),
    expect: { status: [200, 400], format: 'messages' },
  },
  {
    name: 'chat: a content-type with 700 parameters (11 KB)',
    profile: 'default',
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { 'content-type': `application/json${'; charset=utf-8'.repeat(700)}` },
    body: () => chatBody(),
    expect: { status: [200, 400, 415], format: 'openai' },
  },
];

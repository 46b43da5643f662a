/**
 * Generated stored answers for the replay properties: complete chat
 * completions and messages, in the shapes the vendors document (PROTOCOLS
 * A.5, B.3), with every part a replay must give back: several choices,
 * text with any code point, reasoning and signed / redacted thinking,
 * parallel tool calls, citations, server tool blocks, stop sequences and
 * usage with cache figures.
 */
import fc from 'fast-check';

type Json = Record<string, unknown>;

const text = fc.string({ unit: 'binary', maxLength: 60 });
const word = fc.stringMatching(/^[a-z][a-z_]{0,10}$/);
const count = fc.nat(100_000);
const signature = fc.base64String({ minLength: 4, maxLength: 40 });
const toolInput = fc.dictionary(word, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });

const chatThinkingBlock = fc.oneof(
  fc.record({ type: fc.constant('thinking'), thinking: text, signature }),
  fc.record({ type: fc.constant('redacted_thinking'), data: signature }),
);

const chatToolCall = fc.record({
  id: word.map((w) => `call_${w}`),
  type: fc.constant('function'),
  function: fc.record({ name: word, arguments: toolInput.map((input) => JSON.stringify(input)) }),
});

const chatMessage = fc
  .record(
    {
      content: fc.option(text, { nil: null }),
      refusal: fc.option(text, { nil: null }),
      reasoning_content: text,
      thinking_blocks: fc.array(chatThinkingBlock, { minLength: 1, maxLength: 3 }),
      tool_calls: fc.array(chatToolCall, { minLength: 1, maxLength: 3 }),
      annotations: fc.constant([]),
    },
    { requiredKeys: ['content'] },
  )
  .chain((message) => fc.boolean().map((linked): Json => {
    // Half the time the reasoning is the signed blocks' text, as a translated messages answer has it.
    if (!linked || !message.thinking_blocks) return { role: 'assistant', ...message };
    const reasoning = message.thinking_blocks.map((block) => (block.type === 'thinking' ? block.thinking : '')).join('');
    return { role: 'assistant', ...message, reasoning_content: reasoning };
  }));

const chatChoice = fc.record(
  {
    message: chatMessage,
    logprobs: fc.constant(null),
    finish_reason: fc.constantFrom('stop', 'tool_calls', 'length', 'content_filter', 'function_call'),
  },
  { requiredKeys: ['message', 'finish_reason'] },
);

const chatUsage = fc.record(
  {
    prompt_tokens: count,
    completion_tokens: count,
    total_tokens: count,
    prompt_tokens_details: fc.record({ cached_tokens: count }),
    completion_tokens_details: fc.record({ reasoning_tokens: count }),
  },
  { requiredKeys: ['prompt_tokens', 'completion_tokens', 'total_tokens'] },
);

/** A `chat.completion` with 1–3 choices. */
export const chatAnswer = fc
  .record(
    {
      model: word,
      system_fingerprint: fc.option(word, { nil: null }),
      choices: fc.array(chatChoice, { minLength: 1, maxLength: 3 }),
      usage: chatUsage,
    },
    { requiredKeys: ['model', 'choices'] },
  )
  .map(({ choices, ...rest }): Json => ({
    id: 'chatcmpl-stored',
    object: 'chat.completion',
    created: 1_700_000_000,
    ...rest,
    choices: choices.map((choice, index) => ({ index, ...choice })),
  }));

const citation = fc.record({ type: fc.constant('char_location'), cited_text: text, document_index: fc.nat(3), start_char_index: fc.nat(100), end_char_index: fc.nat(100) });

const messagesBlock = fc.oneof(
  fc.record({ type: fc.constant('text'), text }),
  fc.record({ type: fc.constant('text'), text, citations: fc.array(citation, { maxLength: 3 }) }),
  fc.record({ type: fc.constant('thinking'), thinking: text, signature }),
  fc.record({ type: fc.constant('redacted_thinking'), data: signature }),
  fc.record({ type: fc.constant('tool_use'), id: word.map((w) => `toolu_${w}`), name: word, input: toolInput }),
  fc.record({ type: fc.constant('server_tool_use'), id: word.map((w) => `srvtoolu_${w}`), name: fc.constant('web_search'), input: fc.record({ query: text }) }),
  fc.record({
    type: fc.constant('web_search_tool_result'),
    tool_use_id: word.map((w) => `srvtoolu_${w}`),
    content: fc.array(fc.record({ type: fc.constant('web_search_result'), url: word, title: text, encrypted_content: signature }), { maxLength: 2 }),
  }),
);

const messagesUsage = fc.record(
  {
    input_tokens: count,
    output_tokens: count,
    cache_creation_input_tokens: fc.option(count, { nil: null }),
    cache_read_input_tokens: fc.option(count, { nil: null }),
    cache_creation: fc.record({ ephemeral_5m_input_tokens: count, ephemeral_1h_input_tokens: count }),
    output_tokens_details: fc.record({ thinking_tokens: count }),
    service_tier: fc.constant('standard'),
  },
  { requiredKeys: ['input_tokens', 'output_tokens'] },
);

/** A messages `message` with 0–6 blocks of every kind. */
export const messagesAnswer = fc
  .record(
    {
      model: word,
      content: fc.array(messagesBlock, { maxLength: 6 }),
      stop_reason: fc.constantFrom('end_turn', 'tool_use', 'stop_sequence', 'max_tokens', 'pause_turn', 'refusal'),
      stop_sequence: fc.option(word, { nil: null }),
      stop_details: fc.constant(null),
      usage: messagesUsage,
    },
    { requiredKeys: ['model', 'content', 'stop_reason', 'stop_sequence', 'usage'] },
  )
  .map((rest): Json => ({ id: 'msg_stored', type: 'message', role: 'assistant', ...rest }));

/**
 * The size of a model call before it is made: prompt tokens by the
 * project's tokenizer (loaded on first use, only by gateways with token or
 * budget limits), output tokens from `max_tokens` or the configured
 * expectation (none for embeddings), and how many upstream calls `n` turns into.
 *
 * @internal
 */
import type { WireFormat } from '../types.js';
import type { CallEstimate } from './plan-limits.js';

type Counters = typeof import('../tokens/count-tokens.js');

let counters: Promise<Counters> | undefined;
let loaded: Counters | undefined;

/** Loads the tokenizer once. */
export function loadTokenCounters(): Promise<Counters> {
  counters ??= import('../tokens/count-tokens.js').then((module) => (loaded = module));
  return counters;
}

/** The tokenizer if it is loaded already (then no await is needed), else undefined. */
export function loadedTokenCounters(): Counters | undefined {
  return loaded;
}

type Body = Readonly<Record<string, unknown>>;

/**
 * What the estimate reads of the resolved route: the first target's wire
 * format, which decides whether `n > 1` fans out (a `ResolvedRoute` is one).
 */
export interface FanOutRoute {
  readonly targets: readonly { readonly upstream: { readonly format: WireFormat } }[];
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * Upstream calls of a request: a chat request with `n > 1` on a
 * messages-format upstream is fanned out to `n` calls (fan-out-chat.ts);
 * everything else is one call.
 */
export function callsOf(endpoint: string, body: Body, route: FanOutRoute | undefined): { choices: number; calls: number } {
  const choices = choicesOf(endpoint, body);
  return { choices, calls: callCount(choices, route) };
}

function choicesOf(endpoint: string, body: Body): number {
  return endpoint === 'chat.completions' ? (positive(body.n) ?? 1) : 1;
}

function callCount(choices: number, route: FanOutRoute | undefined): number {
  return choices > 1 && route?.targets[0]?.upstream.format === 'messages' ? choices : 1;
}

/** The number of upstream calls of a request ({@link callsOf} without the object). */
export function upstreamCalls(endpoint: string, body: Body, route: FanOutRoute | undefined): number {
  return callCount(choicesOf(endpoint, body), route);
}

function promptTokens(tokens: Counters, endpoint: string, body: Body): number {
  try {
    if (endpoint === 'chat.completions') {
      return tokens.countChatRequestTokens(body as unknown as Parameters<Counters['countChatRequestTokens']>[0]);
    }
    if (endpoint === 'responses.create') return tokens.countResponsesRequestTokens(body);
    if (endpoint === 'embeddings') return tokens.countEmbeddingsInputTokens(body.input);
    return tokens.countMessagesRequestTokens(body as unknown as Parameters<Counters['countMessagesRequestTokens']>[0]);
  } catch {
    // A body the counter cannot walk still gets a size: about four bytes per token.
    return Math.ceil(JSON.stringify(body).length / 4);
  }
}

/** What {@link estimateCall} sizes. */
export interface EstimateInput {
  endpoint: string;
  /** The validated body: its output caps, `n`, and its prompt unless `prompt` is given. */
  body: Body;
  route: FanOutRoute | undefined;
  /**
   * The prompt as the call sends it, as a chat-completions request, when the
   * body does not hold all of it (a Responses request with stored items
   * resolved): counted instead of the body's own input.
   */
  prompt?: Body | undefined;
  /** Output tokens reserved when the body sets no cap (the `expectedOutputTokens` option). */
  expectedOutputTokens: number;
}

/** The estimate of one request. */
export function estimateCall(tokens: Counters, input: EstimateInput): CallEstimate {
  const { endpoint, body, prompt } = input;
  const { choices, calls } = callsOf(endpoint, body, input.route);
  // An embedding generates no tokens: its whole cost is its input.
  const outputTokens = endpoint === 'embeddings' ? 0 : (positive(body.max_completion_tokens) ?? positive(body.max_tokens) ?? positive(body.max_output_tokens) ?? input.expectedOutputTokens);
  const inputTokens = prompt ? promptTokens(tokens, 'chat.completions', prompt) : promptTokens(tokens, endpoint, body);
  return { inputTokens, outputTokens, choices, calls };
}

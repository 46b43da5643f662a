/**
 * The shapes a guard works with: what it sees of a request (the input
 * view) and of an answer (the output view), what it decides, and how it is
 * configured. The same shapes serve the chat, messages and Responses
 * interfaces: a guard never sees a wire format.
 *
 * Offsets (`start`, `end`) count UTF-16 code units, as `String.prototype.slice`
 * does; `end` is exclusive.
 */

/** The client-facing interface a request came in through. */
export type GuardInterface = 'chat' | 'messages' | 'responses';

/** One piece of request text a guard can read and rewrite. */
export interface TextPart {
  /**
   * Where the text lives in the request body, as a dotted path
   * (`messages.2.content.0.text`). Stable for one body; name it in a
   * {@link TextReplacement} to rewrite this part.
   */
  id: string;
  text: string;
}

/** A tool the request offers the model (read-only). */
export interface GuardTool {
  name: string;
  description?: string;
  /** The tool's JSON Schema, when the interface carries one: the request's own object, so do not change it. */
  parameters?: Readonly<Record<string, unknown>>;
}

/** One conversation turn: its role and its text, part by part. */
export interface GuardMessage {
  /** `user` or `assistant` (system and developer text is in {@link GuardInputView.system}). */
  role: 'user' | 'assistant';
  parts: TextPart[];
}

/** What a tool (function) returned to the model, sent back by the caller. */
export interface GuardToolResult {
  /** The call it answers (`tool_call_id`, `tool_use_id`, `call_id`; a legacy chat `function` message gives its name). */
  callId: string;
  parts: TextPart[];
}

/**
 * A request as every interface's guard sees it. Each text the upstream
 * would read from the body is in exactly one part, in body order.
 *
 * Not in the view (and so neither checked nor rewritten): images, audio
 * and files; earlier tool-call arguments; earlier reasoning (thinking
 * blocks and reasoning items are signed or encrypted); stored items a
 * Responses call names by `previous_response_id` or `item_reference`; chat
 * `prediction`; names and metadata fields.
 */
export interface GuardInputView {
  interface: GuardInterface;
  /** The model the caller asked for. */
  model: string;
  /** The id of the principal that made the call, when auth gives one. */
  principal: string | undefined;
  /**
   * Instructions, in order: the messages `system`, Responses
   * `instructions`, then every system- or developer-role message.
   */
  system: TextPart[];
  /** User and assistant turns, in order. */
  messages: GuardMessage[];
  tools: GuardTool[];
  toolResults: GuardToolResult[];
}

/** Rewrites `[start, end)` of the request part `part` to `text`. */
export interface TextReplacement {
  part: string;
  start: number;
  end: number;
  text: string;
}

/** Rewrites `[start, end)` of an output view's `text` to `text`. */
export interface SpanReplacement {
  start: number;
  end: number;
  text: string;
}

/**
 * What a guard decides.
 * - `allow`: pass the text on unchanged.
 * - `block`: refuse; `reason` reaches the caller in its interface's format
 *   (a `content_filter` ending), so write it for them and keep secrets out.
 * - `replace`: pass the text on with these spans rewritten. Spans must not
 *   overlap, nor two start at one offset; an invalid list is a guard error.
 */
export type GuardDecision<R> =
  | { action: 'allow' }
  | { action: 'block'; reason: string }
  | { action: 'replace'; replacements: readonly R[] };

export type InputDecision = GuardDecision<TextReplacement>;
export type OutputDecision = GuardDecision<SpanReplacement>;

/** Which text of an answer an output guard reads. */
export type OutputChannel = 'text' | 'tool_arguments' | 'reasoning';

/**
 * The answer's text on one channel. A non-streamed answer is seen once,
 * whole, with `final: true`. A stream is seen as a sliding window: `text`
 * starts with up to a holdback of text already sent (`releasedLength`
 * characters, context only: spans there are ignored), followed by text
 * held back; `final` is true once, at the end.
 *
 * To rewrite a stream exactly as the whole answer, a guard should decide
 * every match from the text around it (a few characters before, at most
 * the holdback after), which regular expressions of bounded length do,
 * and should block only for a match that ends after `releasedLength`: the
 * context was judged in an earlier window, and its cut-off start can make
 * the tail of a longer word look like a whole one.
 */
export interface GuardOutputView {
  channel: OutputChannel;
  text: string;
  /** How many leading characters of `text` were already sent. 0 for a whole answer. */
  releasedLength: number;
  /** True for a whole answer and for the last window of a stream. */
  final: boolean;
}

/** What a guard knows of the call besides the text. */
export interface GuardContext {
  interface: GuardInterface;
  model: string;
  principal: string | undefined;
  /** Aborted when the guard's time is up or the caller went away: pass it to a moderation call. */
  signal: AbortSignal;
}

/**
 * How much streamed text an output guard holds back before it is sent, so
 * a match split across deltas is seen whole.
 * - `{ chars: N }`: keep the last N characters (default 64).
 * - `'sentence'`: send up to the last sentence end (`.`, `!`, `?` or `…`
 *   before white space, or a line break); a sentence longer than 2,000
 *   characters goes out in pieces.
 */
export type Holdback = { chars?: number } | 'sentence';

/** What a guard does when it throws, times out or returns an invalid decision. */
export type GuardErrorPolicy = 'open' | 'closed';

/**
 * A guard: your code on the traffic, for every interface.
 *
 * @example
 * const noSecrets: Guard = {
 *   name: 'no-secrets',
 *   input: (view) =>
 *     view.messages.some((m) => m.parts.some((p) => p.text.includes('TOP SECRET')))
 *       ? { action: 'block', reason: 'Requests may not contain classified text.' }
 *       : { action: 'allow' },
 * };
 */
export interface Guard {
  /** Names the guard in records, metrics and errors. */
  name: string;
  /** Checks or rewrites the request before it goes upstream. */
  input?: (view: GuardInputView, ctx: GuardContext) => InputDecision | Promise<InputDecision>;
  /** Checks or rewrites the answer, whole or streamed. */
  output?: (view: GuardOutputView, ctx: GuardContext) => OutputDecision | Promise<OutputDecision>;
  /** The output channels `output` reads. Default `['text']`. */
  outputChannels?: readonly OutputChannel[];
  /** Time for one call of `input` or `output`, in ms. Default 2000. */
  timeoutMs?: number;
  /**
   * On a throw, a time-out or an invalid decision: `'closed'` (the default)
   * refuses the call; `'open'` lets the text pass unchanged. Closed is the
   * default because a redactor that fails open sends what it should have
   * removed.
   */
  onError?: GuardErrorPolicy;
  /** For streamed answers. Default `{ chars: 64 }`. */
  holdback?: Holdback;
}

/** What one guard did, for spans and metrics (`modelgate_guard_decisions_total{guard,decision}`). */
export interface GuardRecord {
  guard: string;
  stage: 'input' | 'output';
  /** `error` and `timeout` are failures; the guard's `onError` said what followed. */
  decision: 'allow' | 'replace' | 'block' | 'error' | 'timeout';
  /** Time spent in the guard, in ms (summed over a stream's windows). */
  durationMs: number;
  /** What failed, for `error` and `timeout`. */
  error?: unknown;
}

/** Why a run of guards stopped the call. */
export type GuardStop =
  | { kind: 'block'; guard: string; reason: string }
  /** A guard failed under `onError: 'closed'`. */
  | { kind: 'failed'; guard: string; error: unknown };

/**
 * Gemini's stream (`streamGenerateContent?alt=sse`: one
 * `GenerateContentResponse` per `data:` event) → chat-completion chunks,
 * one Gemini chunk at a time.
 *
 * | Gemini chunk | chat chunk `delta` |
 * |---|---|
 * | first content of a candidate | carries `role: 'assistant'` (and `content: ''` unless it is a call, as the chat vendor's first chunk) |
 * | `text` part | `{content}` |
 * | `thought: true` part | `{reasoning_content}` |
 * | `functionCall` part (always whole) | `{tool_calls:[{index:k, id, type:'function', function:{name, arguments}}]}`, k = 0, 1, … per candidate; the id as in `geminiToChatResponse` |
 * | `finishReason` | `{}` with `finish_reason` (`mapGeminiFinishReason`); a broken function call ends the stream with an error instead |
 * | `usageMetadata` | kept (the last one counts: it arrives on the final chunks, maybe after the finish) |
 * | end of the stream | the usage chunk (`choices: []`) when `includeUsage`, then `[DONE]`; an error when a candidate never finished |
 * | `promptFeedback.blockReason`, no candidates | an error event: 400 `content_filter` |
 * | `{"error":{…}}` (Google's envelope) | an error event with Google's status, then nothing more |
 *
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 * @internal
 */
import { randomUUID } from 'node:crypto';
import { GatewayError } from '../../errors.js';
import type { ChatCompletionChunk, ChatUsage } from '../../schemas/index.js';
import { CHAT_DONE, encodeChatChunk, encodeStreamError } from '../../sse/format-sse.js';
import type { FinishReason } from '../../translate/map-finish-reason.js';
import type { GeminiCandidate, GeminiGenerateContentResponse } from './gemini-types.js';
import { blockedPromptError } from './gemini-blocked-prompt.js';
import { mapGeminiFinishReason } from './gemini-finish-reason.js';
import { failedFinishError } from './gemini-to-chat-response.js';
import { type SealSignature, toChatToolCall } from './gemini-tool-calls.js';
import { geminiUsageToChat } from './gemini-usage.js';
import { geminiFailureToError, googleErrorOf, parseGeminiError } from './read-gemini-error.js';

/** Options of {@link GeminiToChatStream}. */
export interface GeminiToChatStreamOptions {
  /** The model id the caller asked for. */
  model: string;
  /** Completion id, the same on every chunk. Default `chatcmpl-<responseId>` of the first chunk (random without one). */
  id?: string;
  /** Unix seconds, the same on every chunk. Default: when the first chunk is written. */
  created?: number;
  /** `stream_options.include_usage`: send the usage chunk (and `usage: null` on the others). */
  includeUsage: boolean;
  /** Seals a call's `thoughtSignature` into its tool-call id. Default: signatures are left out. */
  sealSignature?: SealSignature;
  /** The upstream's name, for error messages. Default `gemini`. */
  upstream?: string;
  /** Hides secrets in Google's error messages. Default: nothing hidden. */
  redact?: (text: string) => string;
}

type Delta = ChatCompletionChunk['choices'][number]['delta'];

interface ChoiceState {
  started: boolean;
  calls: number;
  finished: boolean;
}

/** The translator of one stream; each string it returns is one whole chat SSE event. */
export class GeminiToChatStream {
  private readonly choices = new Map<number, ChoiceState>();
  private usage: GeminiGenerateContentResponse['usageMetadata'];
  private responseId: string | undefined;
  private id: string | undefined;
  private created: number | undefined;
  private closedFlag = false;

  constructor(private readonly options: GeminiToChatStreamOptions) {}

  /** True once the stream ended (finished, or with an error): later input is ignored. */
  get closed(): boolean {
    return this.closedFlag;
  }

  /** Translates one chunk (the parsed JSON of one `data:` event). */
  push(payload: unknown): string[] {
    if (this.closedFlag) return [];
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
      return this.fail(new GatewayError('UPSTREAM_ERROR', `Upstream "${this.upstream}" sent a stream event that is not a JSON object.`));
    }
    if (googleErrorOf(payload) !== undefined) {
      return this.fail(geminiFailureToError(parseGeminiError(payload), this.upstream, this.options.redact));
    }
    const chunk = payload as GeminiGenerateContentResponse;
    const blocked = blockedPromptError(chunk);
    if (blocked) return this.fail(blocked);
    this.responseId ??= chunk.responseId;
    if (chunk.usageMetadata !== undefined) this.usage = chunk.usageMetadata;
    const out: string[] = [];
    for (const [position, candidate] of (chunk.candidates ?? []).entries()) {
      if (!this.pushCandidate(candidate, candidate.index ?? position, out)) break;
    }
    return out;
  }

  /** The upstream stream ended: the usage chunk and `[DONE]`, or an error when an answer was left unfinished. */
  end(): string[] {
    if (this.closedFlag) return [];
    const states = [...this.choices.values()];
    if (states.length === 0 || states.some((state) => !state.finished)) {
      return this.fail(new GatewayError('UPSTREAM_ERROR', `Upstream "${this.upstream}" ended its stream before the answer finished.`));
    }
    this.closedFlag = true;
    const out: string[] = [];
    if (this.options.includeUsage) out.push(encodeChatChunk(this.envelope([], geminiUsageToChat(this.usage))));
    out.push(CHAT_DONE);
    return out;
  }

  /** Ends the stream with `error` (the one event a failed chat stream ends with). */
  fail(error: GatewayError): string[] {
    if (this.closedFlag) return [];
    this.closedFlag = true;
    return [encodeStreamError(error, 'chat')];
  }

  private get upstream(): string {
    return this.options.upstream ?? 'gemini';
  }

  /** Appends the chunks of one candidate; false when it ended the stream. */
  private pushCandidate(candidate: GeminiCandidate, index: number, out: string[]): boolean {
    let state = this.choices.get(index);
    if (state === undefined) {
      state = { started: false, calls: 0, finished: false };
      this.choices.set(index, state);
    }
    if (state.finished) return true;
    for (const part of candidate.content?.parts ?? []) {
      if (part.functionCall !== undefined) {
        const place = { responseId: this.responseId, candidate: index, call: state.calls };
        const call = toChatToolCall(part.functionCall, part.thoughtSignature, place, this.options.sealSignature);
        out.push(this.chunk(index, this.withRole(state, { tool_calls: [{ index: state.calls, ...call }] }, null), null));
        state.calls++;
      } else if (typeof part.text === 'string' && part.text !== '') {
        const delta: Delta = part.thought === true ? { reasoning_content: part.text } : { content: part.text };
        out.push(this.chunk(index, this.withRole(state, delta, part.thought === true ? null : ''), null));
      }
    }
    if (candidate.finishReason === undefined) return true;
    const finish = mapGeminiFinishReason(candidate.finishReason, state.calls > 0);
    if (finish === 'failed') {
      out.push(...this.fail(failedFinishError(candidate, this.upstream)));
      return false;
    }
    state.finished = true;
    // An answer with nothing in it (thinking used up the tokens) still starts with the role and an empty text.
    out.push(this.chunk(index, this.withRole(state, {}, ''), finish));
    return true;
  }

  /** The first chunk of a choice carries the role, with `content` as the chat vendor's first chunk has it. */
  private withRole(state: ChoiceState, delta: Delta, content: string | null): Delta {
    if (state.started) return delta;
    state.started = true;
    return { role: 'assistant', content, ...delta, refusal: null };
  }

  private chunk(index: number, delta: Delta, finishReason: FinishReason | null): string {
    return encodeChatChunk(this.envelope([{ index, delta, logprobs: null, finish_reason: finishReason }]));
  }

  private envelope(choices: ChatCompletionChunk['choices'], usage?: ChatUsage): ChatCompletionChunk {
    this.id ??= this.options.id ?? `chatcmpl-${this.responseId ?? randomUUID()}`;
    this.created ??= this.options.created ?? Math.floor(Date.now() / 1000);
    const chunk: ChatCompletionChunk = { id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.options.model, choices };
    if (this.options.includeUsage) chunk.usage = usage ?? null;
    return chunk;
  }
}

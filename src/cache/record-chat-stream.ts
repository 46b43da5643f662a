/**
 * A chat-completions chunk stream → the `chat.completion` the same call
 * returns unstreamed (PROTOCOLS B.3, B.4), choice by choice:
 *
 * | chunk | completion |
 * |---|---|
 * | `id`, `created`, `model` (of the first chunk with an id) | the same |
 * | `system_fingerprint`, `service_tier` | the last value sent |
 * | `delta.role` | `message.role` |
 * | `delta.tool_calls[k]` | `message.tool_calls[k]`: `id`, `type`, `function.name` as sent, `function.arguments` concatenated |
 * | `delta.function_call` | `message.function_call`: `name` as sent, `arguments` concatenated |
 * | any other string field (`content`, `refusal`, `reasoning_content`, `reasoning`, …) | concatenated |
 * | any other list field (`thinking_blocks`, `annotations`, …) | concatenated |
 * | `null` | kept when nothing else came for the field |
 * | `finish_reason` | the choice's `finish_reason` |
 * | the usage chunk (`choices: []`) | `usage` |
 *
 * Whole only with `[DONE]` and a finish reason for every choice.
 *
 * @internal
 */
import { parseEventData } from '../translate/stream-transform.js';
import type { SseEvent } from '../sse/parse-sse.js';
import type { AnswerRecorder } from './answer-recorder-contract.js';
import { RecordBudget } from './record-budget.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Top-level chunk fields whose last value is the completion's. */
const LATEST_FIELDS = ['system_fingerprint', 'service_tier'] as const;

interface ToolCallState {
  id: string;
  type: string;
  /** `function` (or another kind's part, e.g. `custom`), merged like a delta. */
  parts: Json;
}

interface ChoiceState {
  message: Json;
  calls: ToolCallState[];
  logprobs: boolean;
  finishReason: string | undefined;
}

class ChatStreamRecorder implements AnswerRecorder {
  private readonly budget: RecordBudget;
  private readonly head: Json = {};
  private readonly choices = new Map<number, ChoiceState>();
  private usage: Json | undefined;
  private done = false;
  private broken = false;

  constructor(maxBytes: number) {
    this.budget = new RecordBudget(maxBytes);
  }

  observe(event: SseEvent): void {
    if (this.broken || this.done) return;
    if (event.event === 'error') return this.break();
    if (event.data.startsWith('[DONE]')) {
      this.done = true;
      return;
    }
    const chunk = parseEventData(event);
    if (!chunk || (chunk.error !== undefined && chunk.error !== null)) return this.break();
    this.readHead(chunk);
    if (isObject(chunk.usage)) this.usage = chunk.usage;
    if (!Array.isArray(chunk.choices)) return;
    for (const [position, choice] of (chunk.choices as unknown[]).entries()) {
      if (isObject(choice)) this.readChoice(choice, position);
      if (this.broken) return;
    }
  }

  finish(): Json | undefined {
    if (this.broken || !this.done || this.choices.size === 0) return undefined;
    const choices: Json[] = [];
    for (const index of [...this.choices.keys()].sort((a, b) => a - b)) {
      const state = this.choices.get(index)!;
      if (state.finishReason === undefined) return undefined;
      choices.push({
        index,
        message: messageOf(state),
        ...(state.logprobs ? { logprobs: null } : {}),
        finish_reason: state.finishReason,
      });
    }
    const { id, created, model, ...latest } = this.head;
    return {
      id: id ?? '',
      object: 'chat.completion',
      created: created ?? 0,
      model: model ?? '',
      ...latest,
      choices,
      ...(this.usage ? { usage: this.usage } : {}),
    };
  }

  private break(): void {
    this.broken = true;
    this.choices.clear();
  }

  private readHead(chunk: Json): void {
    // Azure's first chunk (prompt filter results) has `id: ""`, `created: 0`, `model: ""`: the first chunk with an id names the completion.
    if (this.head.id === undefined && typeof chunk.id === 'string' && chunk.id !== '') {
      this.head.id = chunk.id;
      if (typeof chunk.created === 'number') this.head.created = chunk.created;
      if (typeof chunk.model === 'string') this.head.model = chunk.model;
    }
    for (const key of LATEST_FIELDS) {
      const value = chunk[key];
      if (typeof value === 'string' || (value === null && !(key in this.head))) this.head[key] = value;
    }
  }

  private readChoice(choice: Json, position: number): void {
    const index = typeof choice.index === 'number' ? choice.index : position;
    let state = this.choices.get(index);
    if (!state) {
      state = { message: {}, calls: [], logprobs: false, finishReason: undefined };
      this.choices.set(index, state);
    }
    if ('logprobs' in choice) {
      // Log probabilities are never replayed (such requests bypass the cache): a stream carrying them is not recorded.
      if (choice.logprobs !== null) return this.break();
      state.logprobs = true;
    }
    if (isObject(choice.delta)) this.readDelta(state, choice.delta);
    if (this.broken) return;
    if (typeof choice.finish_reason === 'string') state.finishReason = choice.finish_reason;
  }

  private readDelta(state: ChoiceState, delta: Json): void {
    for (const [key, value] of Object.entries(delta)) {
      if (key === 'role') {
        if (typeof value === 'string') state.message.role = value;
      } else if (key === 'tool_calls') {
        if (Array.isArray(value)) value.forEach((fragment: unknown, position) => this.readToolCall(state, fragment, position));
      } else if (key === 'function_call') {
        if (isObject(value)) this.mergeNamed((state.message.function_call ??= {}) as Json, value);
      } else {
        this.merge(state.message, key, value);
      }
      if (this.broken) return;
    }
  }

  private readToolCall(state: ChoiceState, fragment: unknown, position: number): void {
    if (!isObject(fragment)) return;
    const k = typeof fragment.index === 'number' ? fragment.index : position;
    const call = (state.calls[k] ??= { id: '', type: '', parts: {} });
    for (const [key, value] of Object.entries(fragment)) {
      if (key === 'index') continue;
      if (key === 'id' || key === 'type') {
        if (typeof value === 'string' && value !== '') call[key] = value;
      } else if (isObject(value)) {
        this.mergeNamed((call.parts[key] ??= {}) as Json, value);
      }
    }
  }

  /** Merges a `function` (or `function_call`) fragment: the name is sent whole (some upstreams repeat it), the rest concatenates. */
  private mergeNamed(target: Json, fragment: Json): void {
    for (const [key, value] of Object.entries(fragment)) {
      if (key === 'name') {
        if (typeof value === 'string' && value !== '') target.name = value;
      } else {
        this.merge(target, key, value);
      }
    }
  }

  /** Strings and lists concatenate; `null` only fills an empty field; anything else replaces. */
  private merge(target: Json, key: string, value: unknown): void {
    if (typeof value === 'string') {
      if (!this.budget.spend(value)) return this.break();
      const held = target[key];
      target[key] = typeof held === 'string' ? held + value : value;
    } else if (value === null) {
      if (!(key in target)) target[key] = null;
    } else if (Array.isArray(value)) {
      if (!this.budget.spend(JSON.stringify(value))) return this.break();
      const held = target[key];
      target[key] = Array.isArray(held) ? [...held, ...value] : [...value];
    } else if (value !== undefined) {
      target[key] = value;
    }
  }
}

/** The message of a finished choice: `role` first, `content` always present (`null` for calls alone), calls in index order. */
function messageOf(state: ChoiceState): Json {
  const { role, content, ...rest } = state.message;
  const message: Json = { role: role ?? 'assistant', content: content ?? null, ...rest };
  const calls = state.calls.filter((call) => call !== undefined);
  if (calls.length > 0) {
    message.tool_calls = calls.map((call) => {
      const parts = { ...call.parts };
      if (call.type === '' || call.type === 'function') parts.function = { name: '', arguments: '', ...(parts.function as Json | undefined) };
      return { id: call.id, type: call.type || 'function', ...parts };
    });
  }
  return message;
}

/** Creates a recorder for a chat-completions stream. */
export function createChatStreamRecorder(maxBytes: number): AnswerRecorder {
  return new ChatStreamRecorder(maxBytes);
}

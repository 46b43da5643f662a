/**
 * The chat `messages` list → Gemini `systemInstruction` + `contents`.
 *
 * - `system` / `developer` messages, wherever they are → `systemInstruction`
 *   text parts, in order.
 * - `user` → a `user` turn (parts: `convert-gemini-parts.ts`);
 *   `assistant` → a `model` turn: text (refusals as text), then each
 *   function tool call as a `functionCall` part (`args` parsed from the
 *   JSON string; invalid JSON is a 400). Consecutive turns of one role are
 *   merged.
 * - `tool` messages in a row (and legacy `function` messages) → one `user`
 *   turn of `functionResponse` parts, `{name, response: {output: text}}`,
 *   in the order of the assistant's calls (Gemini answers 400 when parallel
 *   results are split over turns). The name comes from the assistant's call
 *   with that `tool_call_id` (the latest, if a client reuses ids); an id
 *   no earlier call has is a 400, as on the vendor's API. Gemini's own call
 *   ids are not sent: calls and results pair by name and order.
 * - Thought signatures: a call's id minted by the gateway carries its sealed
 *   signature (`thought-signature-carrier.ts`); `openSignature` opens it and
 *   the signature goes back on that call's part. The `thinking_blocks`
 *   extension of an assistant message is read too: each block's signature
 *   that opens goes to the turn's first call without one, else to the
 *   turn's last part (where Gemini puts it on an answer without calls).
 *   Thought text is never sent back: the signature is what Gemini reads.
 * - A Gemini 3 `model` turn with calls whose first call has no signature
 *   (history from another model, a hand-built turn, a signature that no
 *   longer opens) gets `skip_thought_signature_validator`, the value
 *   Google documents for such turns, and a warning; Gemini otherwise
 *   answers 400 for the turn in progress. Earlier models do not validate
 *   signatures and get none.
 * - A trailing `model` turn (assistant prefill) is left out with a warning:
 *   Gemini does not continue one.
 *
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 * @see https://ai.google.dev/gemini-api/docs/function-calling
 * @internal
 */
import type { ChatMessage } from '../../schemas/chat.js';
import { invalidParam } from '../../translate/param-policy.js';
import { chatPartToGemini } from './convert-gemini-parts.js';
import { geminiFamily } from './gemini-model-family.js';
import type { GeminiContent, GeminiPart } from './gemini-types.js';
import { readToolCallId } from './thought-signature-carrier.js';

/** Google's documented signature for function-call turns Gemini did not produce. */
export const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/** Options of {@link convertGeminiContents}. */
export interface ConvertGeminiContentsOptions {
  /** The upstream model id: decides whether missing signatures get the placeholder. */
  model: string;
  /** Opens a sealed signature; `undefined` for text that does not open. */
  openSignature?: ((sealed: string) => string | undefined) | undefined;
  /** Collects warnings. */
  warnings: string[];
}

export interface ConvertedGeminiContents {
  systemInstruction?: GeminiContent;
  contents: GeminiContent[];
}

type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

/** A turn being built; results keep their call position until the turn is done. */
interface Turn {
  role: 'user' | 'model';
  kind: 'text' | 'results' | 'calls';
  parts: GeminiPart[];
  positions: number[];
}

interface KnownCall {
  name: string;
  position: number;
}

function textOf(content: string | readonly { text: string }[]): string {
  return typeof content === 'string' ? content : content.map((part) => part.text).join('');
}

function parseArguments(text: string, param: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidParam(param, `\`${param}\` is not valid JSON; tool call arguments must be a JSON object encoded as a string.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidParam(param, `\`${param}\` must encode a JSON object.`);
  return value as Record<string, unknown>;
}

/** Signatures of the `thinking_blocks` extension that open, in order. */
function blockSignatures(message: AssistantMessage, open: ConvertGeminiContentsOptions['openSignature']): string[] {
  const blocks: unknown = message.thinking_blocks;
  if (!open || !Array.isArray(blocks)) return [];
  const out: string[] = [];
  for (const block of blocks) {
    const signature = (block as { signature?: unknown } | null)?.signature;
    const opened = typeof signature === 'string' ? open(signature) : undefined;
    if (opened) out.push(opened);
  }
  return out;
}

function placeSignatures(parts: GeminiPart[], signatures: readonly string[]): void {
  for (const signature of signatures) {
    if (parts.some((part) => part.thoughtSignature === signature)) continue;
    const target = parts.find((part) => part.functionCall && !part.thoughtSignature) ?? parts.at(-1);
    if (target && !target.thoughtSignature) target.thoughtSignature = signature;
  }
}

function assistantParts(
  message: AssistantMessage,
  param: string,
  options: ConvertGeminiContentsOptions,
  calls: Map<string, KnownCall | null>,
): GeminiPart[] {
  const { warnings, openSignature } = options;
  const parts: GeminiPart[] = [];
  const { content } = message;
  if (typeof content === 'string') {
    if (content !== '') parts.push({ text: content });
  } else if (Array.isArray(content)) {
    for (const part of content) {
      const text = part.type === 'text' ? part.text : part.refusal;
      if (text !== '') parts.push({ text });
    }
  }
  if (typeof message.refusal === 'string' && message.refusal !== '') parts.push({ text: message.refusal });
  message.tool_calls?.forEach((call, j) => {
    if (call.type !== 'function') {
      warnings.push(`\`${param}.tool_calls.${j}\` left out: Gemini has no custom tools.`);
      calls.set(call.id, null);
      return;
    }
    const fn = call.function as { name: string; arguments: string };
    const part: GeminiPart = { functionCall: { name: fn.name, args: parseArguments(fn.arguments, `${param}.tool_calls.${j}.function.arguments`) } };
    const { signatureSeal } = readToolCallId(call.id);
    const signature = signatureSeal && openSignature ? openSignature(signatureSeal) : undefined;
    if (signature) part.thoughtSignature = signature;
    parts.push(part);
    calls.set(call.id, { name: fn.name, position: j });
  });
  if (message.function_call) {
    const { name, arguments: args } = message.function_call;
    parts.push({ functionCall: { name, args: parseArguments(args, `${param}.function_call.arguments`) } });
  }
  if (message.audio) warnings.push(`\`${param}.audio\` left out: Gemini cannot take earlier audio answers by id.`);
  placeSignatures(parts, blockSignatures(message, openSignature));
  return parts;
}

/** Turns that are built, then the finished contents. */
function createTurns() {
  const turns: Turn[] = [];
  return {
    turns,
    add(role: Turn['role'], kind: Turn['kind'], parts: GeminiPart[], position = 0): void {
      if (parts.length === 0) return;
      const last = turns.at(-1);
      // Results stay a turn of their own; text and calls of one role merge.
      const merges = last?.role === role && (kind === 'results') === (last.kind === 'results');
      if (last && merges) {
        last.parts.push(...parts);
        last.positions.push(...parts.map(() => position));
        if (kind === 'calls') last.kind = 'calls';
      } else turns.push({ role, kind, parts: [...parts], positions: parts.map(() => position) });
    },
  };
}

function finish(turn: Turn): GeminiContent {
  if (turn.kind !== 'results') return { role: turn.role, parts: turn.parts };
  const order = turn.parts.map((part, i) => ({ part, position: turn.positions[i] ?? 0 }));
  order.sort((a, b) => a.position - b.position);
  return { role: turn.role, parts: order.map((entry) => entry.part) };
}

/** Gives each Gemini 3 call turn's first call a signature, as Gemini requires. */
function fillMissingSignatures(contents: GeminiContent[], options: ConvertGeminiContentsOptions): void {
  if (geminiFamily(options.model) !== 'gemini-3') return;
  for (const content of contents) {
    const first = content.role === 'model' ? content.parts.find((part) => part.functionCall) : undefined;
    if (!first || first.thoughtSignature) continue;
    first.thoughtSignature = SKIP_THOUGHT_SIGNATURE;
    options.warnings.push(
      'An assistant turn with tool calls had no thought signature (its tool-call ids were not issued by this gateway for this caller and model): sent Google\'s placeholder for such turns, so Gemini continues without the earlier reasoning.',
    );
  }
}

/** Converts the conversation. Throws a 400 for malformed input (bad arguments, unknown `tool_call_id`). */
export function convertGeminiContents(messages: readonly ChatMessage[], options: ConvertGeminiContentsOptions): ConvertedGeminiContents {
  const { warnings } = options;
  const system: GeminiPart[] = [];
  const calls = new Map<string, KnownCall | null>();
  const { turns, add } = createTurns();
  messages.forEach((message, i) => {
    const param = `messages.${i}`;
    if ('name' in message && message.role !== 'function' && message.name) warnings.push('`name` on messages left out: Gemini has no participant names.');
    switch (message.role) {
      case 'system':
      case 'developer': {
        const text = textOf(message.content);
        if (text !== '') system.push({ text });
        break;
      }
      case 'user': {
        const { content } = message;
        const parts: GeminiPart[] = [];
        if (typeof content === 'string') {
          if (content !== '') parts.push({ text: content });
        } else {
          content.forEach((part, j) => {
            const converted = chatPartToGemini(part, `${param}.content.${j}`, warnings);
            if (converted) parts.push(converted);
          });
        }
        add('user', 'text', parts);
        break;
      }
      case 'assistant': {
        const parts = assistantParts(message, param, options, calls);
        add('model', parts.some((part) => part.functionCall) ? 'calls' : 'text', parts);
        break;
      }
      case 'tool': {
        const call = calls.get(message.tool_call_id);
        if (call === undefined) {
          throw invalidParam(`${param}.tool_call_id`, `\`${param}.tool_call_id\` does not match a tool call of an earlier assistant message.`);
        }
        if (call === null) break;
        const response = { output: textOf(message.content) };
        add('user', 'results', [{ functionResponse: { name: call.name, response } }], call.position);
        break;
      }
      case 'function':
        add('user', 'results', [{ functionResponse: { name: message.name, response: { output: message.content ?? '' } } }]);
        break;
      default: {
        const unknown: never = message;
        return unknown;
      }
    }
  });
  while (turns.at(-1)?.role === 'model') {
    turns.pop();
    warnings.push('A trailing assistant message left out: Gemini does not continue an assistant prefill.');
  }
  const contents = turns.map(finish);
  fillMissingSignatures(contents, options);
  const systemInstruction = system.length > 0 ? { parts: system } : undefined;
  if (contents.length === 0) {
    if (!systemInstruction) throw invalidParam('messages', '`messages` needs a user message: Gemini answers only after one.');
    warnings.push('`messages` has only system or developer text: sent it as the user turn Gemini needs.');
    return { contents: [{ role: 'user', parts: system }] };
  }
  return systemInstruction ? { systemInstruction, contents } : { contents };
}

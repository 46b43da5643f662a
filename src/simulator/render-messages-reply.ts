/**
 * Renders a reply plan in the messages wire format: the `message` body
 * (PROTOCOLS A.5) or the full event sequence of a stream (A.6).
 */
import { splitByTokens } from '../tokens/split-by-tokens.js';
import type { CacheUsage } from './prompt-cache.js';
import type { ReplyPlan } from './plan-reply.js';
import type { SseFrame } from './response-body.js';

/** Tokens per streamed delta. */
const TOKENS_PER_DELTA = 3;

type Block = Record<string, unknown>;

/** Identity of a reply: message id and the model that answers. */
export interface MessageMeta {
  id: string;
  model: string;
  cache: CacheUsage;
}

function contentOf(plan: ReplyPlan): Block[] {
  const blocks: Block[] = [];
  if (plan.thinking) blocks.push({ type: 'thinking', thinking: plan.thinking.text, signature: plan.thinking.signature });
  if (plan.text.length > 0 || plan.toolCalls.length === 0) blocks.push({ type: 'text', text: plan.text });
  for (const call of plan.toolCalls) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
  return blocks;
}

function usageOf(plan: ReplyPlan, meta: MessageMeta, outputTokens: number): Block {
  return {
    ...meta.cache,
    cache_creation: { ...meta.cache.cache_creation },
    output_tokens: outputTokens,
    output_tokens_details: { thinking_tokens: plan.thinking?.tokens ?? 0 },
    service_tier: 'standard',
    inference_geo: 'global',
  };
}

/** The non-streamed `message` body. */
export function renderMessage(plan: ReplyPlan, meta: MessageMeta): Block {
  return {
    id: meta.id,
    type: 'message',
    role: 'assistant',
    model: meta.model,
    content: contentOf(plan),
    stop_reason: plan.stopReason,
    stop_sequence: plan.stopSequence,
    stop_details: null,
    usage: usageOf(plan, meta, plan.outputTokens),
  };
}

function frame(data: Block, tokens = 0): SseFrame {
  return { event: String(data.type), data: JSON.stringify(data), tokens };
}

/**
 * The events of a streamed reply: `message_start` (usage with input and
 * cache figures), per block start / deltas / stop, a `ping` after the first
 * block start, `message_delta` (stop reason, cumulative usage) and
 * `message_stop`.
 */
export function renderMessageEvents(plan: ReplyPlan, meta: MessageMeta): SseFrame[] {
  const start = {
    ...renderMessage(plan, meta),
    content: [],
    stop_reason: null,
    stop_sequence: null,
    // The vendor reports a token or so of output at the start; the total comes in `message_delta`.
    usage: usageOf(plan, meta, Math.min(1, plan.outputTokens)),
  };
  const frames: SseFrame[] = [frame({ type: 'message_start', message: start })];
  const blocks = contentOf(plan);
  blocks.forEach((block, index) => {
    const delta = (payload: Block, tokens: number) => frames.push(frame({ type: 'content_block_delta', index, delta: payload }, tokens));
    const open = (contentBlock: Block) => {
      frames.push(frame({ type: 'content_block_start', index, content_block: contentBlock }));
      if (index === 0) frames.push({ event: 'ping', data: '{"type": "ping"}', tokens: 0 });
    };
    if (block.type === 'thinking') {
      open({ type: 'thinking', thinking: '', signature: '' });
      for (const piece of splitByTokens(String(block.thinking), TOKENS_PER_DELTA)) delta({ type: 'thinking_delta', thinking: piece.text }, piece.tokens);
      // One signature delta just before the block stops, as the vendor sends it.
      delta({ type: 'signature_delta', signature: String(block.signature) }, 0);
    } else if (block.type === 'text') {
      open({ type: 'text', text: '' });
      for (const piece of splitByTokens(String(block.text), TOKENS_PER_DELTA)) delta({ type: 'text_delta', text: piece.text }, piece.tokens);
    } else {
      const call = plan.toolCalls.find((candidate) => candidate.id === block.id);
      open({ type: 'tool_use', id: block.id, name: block.name, input: {} });
      // The vendor's first fragment is often empty; clients must cope with it.
      delta({ type: 'input_json_delta', partial_json: '' }, 0);
      for (const piece of splitByTokens(call?.json ?? '{}', TOKENS_PER_DELTA)) delta({ type: 'input_json_delta', partial_json: piece.text }, piece.tokens);
    }
    frames.push(frame({ type: 'content_block_stop', index }));
  });
  const { cache_creation: _details, ...cacheFigures } = meta.cache;
  frames.push(
    frame({
      type: 'message_delta',
      delta: { stop_reason: plan.stopReason, stop_sequence: plan.stopSequence, stop_details: null },
      usage: { ...cacheFigures, output_tokens: plan.outputTokens },
    }),
  );
  frames.push(frame({ type: 'message_stop' }));
  return frames;
}

/**
 * What a cloud platform (Amazon Bedrock, Google Vertex AI) takes of a
 * messages request, and the warnings that tell the caller what was left
 * out: both platforms answer 400 for the whole request when it carries an
 * `anthropic-beta` value or a field they do not know, so the gateway leaves
 * those out before the call and says so (`x-modelgate-warnings`).
 *
 * @internal
 */

import type { UpstreamResponse } from './upstream.js';

/** `response` carrying `warnings` (itself when there are none). */
export function withWarnings(response: UpstreamResponse, warnings: readonly string[]): UpstreamResponse {
  return warnings.length === 0 ? response : { ...response, warnings };
}

/** The warning for something a platform does not take: `anthropic-beta files-api-2025-04-14 is not available on Amazon Bedrock; not sent`. */
export function notSentWarning(what: string, platform: string): string {
  return `${what} is not available on ${platform}; not sent`;
}

/** The betas of `betas` that `accepted` holds; a warning for each other one. */
export function acceptedBetas(betas: readonly string[], accepted: ReadonlySet<string>, platform: string, warnings: string[]): string[] {
  const sent: string[] = [];
  for (const beta of betas) {
    if (accepted.has(beta)) sent.push(beta);
    else warnings.push(notSentWarning(`anthropic-beta ${beta}`, platform));
  }
  return sent;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A block without `cache_control.scope` (itself when it has none); a tool result's nested blocks too. */
function blockWithoutScope(block: unknown): unknown {
  if (!isObject(block)) return block;
  let out: Json | undefined;
  const cacheControl = block.cache_control;
  if (isObject(cacheControl) && 'scope' in cacheControl) {
    const { scope: _scope, ...rest } = cacheControl;
    out = { ...block, cache_control: rest };
  }
  if (Array.isArray(block.content)) {
    const content = blocksWithoutScope(block.content);
    if (content !== block.content) out = { ...(out ?? block), content };
  }
  return out ?? block;
}

/** The blocks without `cache_control.scope`: the same array when none had one, else a copy (the caller's objects stay as they were). */
function blocksWithoutScope(blocks: readonly unknown[]): readonly unknown[] {
  let out: unknown[] | undefined;
  blocks.forEach((block, index) => {
    const next = blockWithoutScope(block);
    if (next === block) return;
    out ??= [...blocks];
    out[index] = next;
  });
  return out ?? blocks;
}

/**
 * Removes `cache_control.scope` (the vendor API's prompt-caching scope, a
 * beta neither platform takes) from the system blocks, the messages' blocks
 * and the tools of `body`, a body of the upstream's own: the arrays that
 * change are replaced by copies, so the call's body (which a fallback may
 * send again) is not touched. Adds one warning when anything was removed.
 */
export function removeCacheScope(body: Json, platform: string, warnings: string[]): void {
  let removed = false;
  const replace = (name: string, value: readonly unknown[]): void => {
    const next = blocksWithoutScope(value);
    if (next === value) return;
    body[name] = next;
    removed = true;
  };
  if (Array.isArray(body.system)) replace('system', body.system);
  if (Array.isArray(body.tools)) replace('tools', body.tools);
  if (Array.isArray(body.messages)) {
    const messages = body.messages.map((message: unknown) => {
      if (!isObject(message) || !Array.isArray(message.content)) return message;
      const content = blocksWithoutScope(message.content);
      return content === message.content ? message : { ...message, content };
    });
    if (messages.some((message, index) => message !== (body.messages as unknown[])[index])) {
      body.messages = messages;
      removed = true;
    }
  }
  if (removed) warnings.push(notSentWarning('cache_control.scope', platform));
}

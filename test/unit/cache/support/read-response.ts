/** Reads a synthesized upstream response the way the relay does: whole JSON, or SSE events through the gateway's parser. */
import { parseSse, type SseEvent } from '../../../../src/sse/parse-sse.js';
import type { UpstreamResponse } from '../../../../src/upstreams/upstream.js';

export async function readText(response: UpstreamResponse): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

export async function readJson(response: UpstreamResponse): Promise<Record<string, unknown>> {
  return JSON.parse(await readText(response)) as Record<string, unknown>;
}

export async function readEvents(response: UpstreamResponse): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of parseSse(response.body)) events.push(event);
  return events;
}

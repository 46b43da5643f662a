/**
 * Coding agents through the gateway: requests
 * shaped like a Claude Code-style client's (adaptive thinking,
 * `output_config.effort`, a cached system prompt, a `<system-reminder>`
 * wrapper block before the user's words, tools, streaming, beta headers)
 * sent with the official `@anthropic-ai/sdk` client to all twelve models,
 * through Express and Koa, with the embedded simulator (which applies the
 * SPEC rules) as upstream.
 *
 * - `adaptThinking: true`: every model answers; conversions are reported
 *   in `x-modelgate-adapted-thinking`.
 * - default: the spec's thinking errors are unchanged on the nine models that do
 *   not take adaptive thinking.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adaptiveOnEnabled, thinkingNotAvailable } from '../helpers/expected-rule-errors.js';
import { agentClient, agentTurn, REMINDER } from '../helpers/agent-turn.js';
import { failure, KEY } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';
import { SPEC_MATRIX, type SpecRow } from '../unit/models/spec-matrix.js';

const ADAPTERS = ['express5', 'koa3'] as const;

/** The `x-modelgate-adapted-thinking` header expected for a model (defaults: effort high 16384, capped at half of 32000). */
function expectedAdaptation(row: SpecRow): string | null {
  if (row.thinking === 'adaptive') return null;
  if (row.thinking === 'enabled') return 'thinking.adaptive -> thinking.enabled (budget_tokens 16000)';
  return `thinking.adaptive -> dropped (${row.id} has no extended thinking)`;
}

async function collect(stream: AsyncIterable<Anthropic.RawMessageStreamEvent>): Promise<Anthropic.RawMessageStreamEvent[]> {
  const events: Anthropic.RawMessageStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe.each(ADAPTERS)('a coding agent on %s', (mount) => {
  let adapting: StartedApp;
  let strict: StartedApp;

  beforeAll(async () => {
    adapting = await startApp(mount, { auth: { keys: [KEY] }, adaptThinking: true });
    strict = await startApp(mount, { auth: { keys: [KEY] } });
  });
  afterAll(async () => {
    await adapting.close();
    await strict.close();
  });

  describe.each(SPEC_MATRIX)('$id (thinking $thinking)', (row) => {
    it('with adaptThinking: a streamed agent turn answers, and the header reports the conversion', async () => {
      const client = agentClient(adapting.url, KEY);
      const words = 'Please use Read on /repo/src/index.ts and summarise its exports.';
      const { data, response } = await client.messages.create(agentTurn(row.id, words)).withResponse();
      const events = await collect(data);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-modelgate-adapted-thinking')).toBe(expectedAdaptation(row));
      expect(events[0]?.type).toBe('message_start');
      expect(events.at(-1)?.type).toBe('message_stop');
      const blocks = events.flatMap((event) => (event.type === 'content_block_start' ? [event.content_block] : []));
      // The user named Read: the agent gets a Read call whose argument comes from the user's words, not the reminder.
      const call = blocks.find((block) => block.type === 'tool_use');
      expect(call?.type === 'tool_use' ? call.name : undefined).toBe('Read');
      const input = events
        .flatMap((event) => (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta' ? [event.delta.partial_json] : []))
        .join('');
      const filePath = (JSON.parse(input) as { file_path?: unknown }).file_path;
      expect(typeof filePath).toBe('string');
      expect(words).toContain(filePath as string);
      expect(REMINDER).not.toContain(filePath as string);
      // Models that think (enabled after conversion, or adaptive) show a thinking block; the others none.
      expect(blocks.some((block) => block.type === 'thinking')).toBe(row.thinking !== 'none');
    });

    it('with adaptThinking: the tool_result round trip answers with text', async () => {
      const client = agentClient(adapting.url, KEY);
      const first = await client.messages.stream(agentTurn(row.id, 'Please use Read on /repo/README.md')).finalMessage();
      const call = first.content.find((block) => block.type === 'tool_use');
      if (call?.type !== 'tool_use') throw new Error('expected a tool call');
      const second = agentTurn(row.id, 'unused');
      second.messages = [
        second.messages[0] as Anthropic.MessageParam,
        { role: 'assistant', content: first.content.map((block) => block as Anthropic.ContentBlockParam) },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '# modelgate\nA gateway.' }, { type: 'text', text: REMINDER }] },
      ];
      const answer = await client.messages.stream(second).finalMessage();
      expect(answer.stop_reason).toBe('end_turn');
      expect(answer.content.some((block) => block.type === 'text' && block.text.length > 0)).toBe(true);
    });

    it('without adaptThinking: the SPEC answer is unchanged', async () => {
      const client = agentClient(strict.url, KEY);
      const request = agentTurn(row.id, 'Summarise the exports of the entry file.');
      if (row.thinking === 'adaptive') {
        const { response } = await client.messages.create(request).withResponse();
        expect(response.status).toBe(200);
        expect(response.headers.get('x-modelgate-adapted-thinking')).toBeNull();
        return;
      }
      const error = await failure(() => client.messages.create(request));
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      const body = (error as InstanceType<typeof Anthropic.APIError>).error as { error?: { type?: string; message?: string } };
      expect(body.error?.type).toBe('invalid_request_error');
      expect(body.error?.message).toBe(row.thinking === 'enabled' ? adaptiveOnEnabled(row.id) : thinkingNotAvailable(row.id));
    });
  });

  it('with adaptThinking, enabled thinking on an adaptive model becomes adaptive', async () => {
    const client = agentClient(adapting.url, KEY);
    const { data, response } = await client.messages
      .create({ model: 'vendora-opus-5', max_tokens: 2048, messages: [{ role: 'user', content: 'Hi.' }], thinking: { type: 'enabled', budget_tokens: 2048 } })
      .withResponse();
    expect(response.headers.get('x-modelgate-adapted-thinking')).toBe('thinking.enabled -> thinking.adaptive');
    expect(data.stop_reason).toBe('end_turn');
  });
});

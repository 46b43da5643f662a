/**
 * Output guards on streamed answers through the official clients over
 * real HTTP (node:http and Express): an e-mail address and a phone number
 * split across deltas are still redacted, and a denied term mid-stream
 * ends the stream with the interface's filter ending, nothing after it,
 * on chat, messages and Responses, over a chat upstream and a messages upstream.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGuardUpstreams } from '../helpers/guard-upstreams.js';
import { startOutputGuardedApp } from '../helpers/output-guarded-app.js';
import type { StartedApp } from '../helpers/start-app.js';

const PII_DELTAS = ['Reach Jane at jane.d', 'oe@exam', 'ple.com or +1 415 5', '55 0100 today.'];
const REDACTED = 'Reach Jane at [EMAIL] or [PHONE] today.';
const DENIED_DELTAS = ['Some intro text. ', 'The codename is Project Night', 'ingale, as planned.', ' After the block.'];

const script = { deltas: PII_DELTAS };
let upstreams: Awaited<ReturnType<typeof startGuardUpstreams>>;
beforeAll(async () => {
  upstreams = await startGuardUpstreams(script);
});
afterAll(() => upstreams.close());

describe.each(['node', 'express5'] as const)('output guards on streams on %s', (mount) => {
  let app: StartedApp;
  let openai: OpenAI;
  let anthropic: Anthropic;
  beforeAll(async () => {
    ({ app, openai, anthropic } = await startOutputGuardedApp(mount, upstreams));
  });
  afterAll(() => app.close());

  describe.each(['via-chat', 'via-messages'] as const)('over %s', (model) => {
    const chatStream = async () => {
      const stream = await openai.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'hi' }] });
      let text = '';
      let finish: string | null = null;
      for await (const chunk of stream) {
        for (const choice of chunk.choices) {
          text += choice.delta.content ?? '';
          finish = choice.finish_reason ?? finish;
        }
      }
      return { text, finish };
    };
    const messagesStream = async () => {
      const stream = anthropic.messages.stream({ model, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
      const message = await stream.finalMessage();
      const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      return { text, stop: message.stop_reason };
    };

    const responsesStream = async () => {
      const stream = openai.responses.stream({ model, input: 'hi', store: false });
      let text = '';
      for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
      const response = await stream.finalResponse();
      return { text, final: response.output_text, status: response.status, reason: response.incomplete_details?.reason };
    };

    it('Responses: redacts matches split across deltas, in the deltas and the final response', async () => {
      script.deltas = PII_DELTAS;
      expect(await responsesStream()).toEqual({ text: REDACTED, final: REDACTED, status: 'completed', reason: undefined });
    });

    it('Responses: a denied term mid-stream ends it incomplete with content_filter, nothing of it or after it sent', async () => {
      script.deltas = DENIED_DELTAS;
      const { text, status, reason } = await responsesStream();
      expect(status).toBe('incomplete');
      expect(reason).toBe('content_filter');
      expect(text).not.toMatch(/nightingale|After the block/i);
    });

    it('chat: redacts matches split across deltas', async () => {
      script.deltas = PII_DELTAS;
      expect(await chatStream()).toEqual({ text: REDACTED, finish: 'stop' });
    });

    it('chat: a denied term mid-stream ends it with content_filter, nothing of it or after it sent', async () => {
      script.deltas = DENIED_DELTAS;
      const { text, finish } = await chatStream();
      expect(finish).toBe('content_filter');
      expect(text).not.toMatch(/nightingale|After the block/i);
    });

    it('messages: redacts matches split across deltas', async () => {
      script.deltas = PII_DELTAS;
      expect(await messagesStream()).toEqual({ text: REDACTED, stop: 'end_turn' });
    });

    it('messages: a denied term mid-stream ends it with a refusal, nothing of it or after it sent', async () => {
      script.deltas = DENIED_DELTAS;
      const { text, stop } = await messagesStream();
      expect(stop).toBe('refusal');
      expect(text).not.toMatch(/nightingale|After the block/i);
    });
  });
});

/**
 * Output guards on whole (non-streamed) answers through the official
 * clients over real HTTP (node:http and Express): the PII redactor
 * rewrites what the client gets and the deny-list turns the answer into
 * the interface's filtered answer, on chat, messages and Responses, over a
 * chat upstream and a messages upstream; usage is still in the answer.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGuardUpstreams } from '../helpers/guard-upstreams.js';
import { startOutputGuardedApp } from '../helpers/output-guarded-app.js';
import type { StartedApp } from '../helpers/start-app.js';

const PII_ANSWER = 'Reach Jane at jane.doe@example.com or +1 415 555 0100 today.';
const REDACTED = 'Reach Jane at [EMAIL] or [PHONE] today.';
const DENIED_ANSWER = 'The codename is Project Nightingale, as planned.';

const script = { deltas: [PII_ANSWER] };
let upstreams: Awaited<ReturnType<typeof startGuardUpstreams>>;
beforeAll(async () => {
  upstreams = await startGuardUpstreams(script);
});
afterAll(() => upstreams.close());

describe.each(['node', 'express5'] as const)('output guards on whole answers on %s', (mount) => {
  let app: StartedApp;
  let openai: OpenAI;
  let anthropic: Anthropic;
  beforeAll(async () => {
    ({ app, openai, anthropic } = await startOutputGuardedApp(mount, upstreams));
  });
  afterAll(() => app.close());

  describe.each(['via-chat', 'via-messages'] as const)('over %s', (model) => {
    const ask = (answer: string) => {
      script.deltas = [answer];
    };
    const chat = () => openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
    const messages = () => anthropic.messages.create({ model, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
    const responses = () => openai.responses.create({ model, input: 'hi', store: false });

    it('chat: redacts the answer, and a denied term ends it with content_filter and no text, usage kept', async () => {
      ask(PII_ANSWER);
      expect((await chat()).choices[0]?.message.content).toBe(REDACTED);
      ask(DENIED_ANSWER);
      const filtered = await chat();
      expect(filtered.choices[0]?.finish_reason).toBe('content_filter');
      expect(filtered.choices[0]?.message.content ?? '').toBe('');
      expect(JSON.stringify(filtered)).not.toMatch(/nightingale/i);
      expect(filtered.usage?.prompt_tokens).toBe(11);
    });

    it('messages: redacts the answer, and a denied term ends it with a refusal, usage kept', async () => {
      ask(PII_ANSWER);
      const answer = await messages();
      expect(answer.content).toEqual([expect.objectContaining({ type: 'text', text: REDACTED })]);
      ask(DENIED_ANSWER);
      const filtered = await messages();
      expect(filtered.stop_reason).toBe('refusal');
      expect(JSON.stringify(filtered)).not.toMatch(/nightingale/i);
      expect(filtered.usage.input_tokens).toBe(11);
    });

    it('Responses: redacts the answer, and a denied term makes it incomplete with content_filter, usage kept', async () => {
      ask(PII_ANSWER);
      expect((await responses()).output_text).toBe(REDACTED);
      ask(DENIED_ANSWER);
      const filtered = await responses();
      expect(filtered.status).toBe('incomplete');
      expect(filtered.incomplete_details?.reason).toBe('content_filter');
      expect(filtered.output_text).toBe('');
      expect(JSON.stringify(filtered)).not.toMatch(/nightingale/i);
      expect(filtered.usage?.input_tokens).toBe(11);
    });
  });
});

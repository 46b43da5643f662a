/**
 * Guards over a cloud upstream (the Amazon Bedrock stub, which signs and
 * frames its streams its own way, and echoes the prompt): the request it
 * is sent is redacted, and its echo is redacted on the way back, on chat,
 * messages and Responses, streamed and not, through the official clients.
 */
import { bedrockUpstream, type Guard, piiRedactor } from 'modelgate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BedrockStub, REGION, startBedrockStub } from '../helpers/bedrock-stub.js';
import { anthropicClient, AUTH, openAIClient } from '../helpers/e2e-fixtures.js';
import { type StartedApp, startApp } from '../helpers/start-app.js';

const KEYS = { accessKeyId: 'AKIDGATEWAY00001', secretAccessKey: 'gw/Secret+Key0123456789abcdefEXAMPLE' };
const PROMPT = 'mail jane.doe@example.com or call +1 415 555 0100';
const ECHO_REDACTED = 'Bedrock says: mail [EMAIL] or call [PHONE]';

/** The redactor on answers only: the stub echoes the prompt unredacted, so what the client gets shows the output side. */
const { input: _input, ...redactOutput } = piiRedactor({ name: 'pii-out' });
const outputOnly: Guard = redactOutput;

describe('guards over Amazon Bedrock', () => {
  let bedrock: BedrockStub;
  let app: StartedApp;
  beforeAll(async () => {
    bedrock = await startBedrockStub({ credentials: [KEYS] });
    const aws = bedrockUpstream({ region: REGION, endpoint: bedrock.url, credentials: KEYS, name: 'bedrock' });
    app = await startApp('express5', {
      auth: AUTH,
      routes: [
        { match: 'vendora-sonnet-4-6', upstream: aws, model: 'us.anthropic.claude-sonnet-4-6-v1:0', retries: 0, guards: [outputOnly] },
        { match: 'vendora-opus-4-6', upstream: aws, model: 'anthropic.claude-opus-4-6-v1:0', retries: 0, guards: [piiRedactor()] },
      ],
    });
  });
  afterAll(async () => {
    await app.close();
    await bedrock.close();
  });

  it('sends Bedrock the redacted request', async () => {
    await anthropicClient(app.url).messages.create({ model: 'vendora-opus-4-6', max_tokens: 64, messages: [{ role: 'user', content: PROMPT }] });
    const sent = bedrock.requests.at(-1)!;
    expect(sent.authProblem).toBeUndefined();
    expect(sent.body).toContain('mail [EMAIL] or call [PHONE]');
    expect(sent.body).not.toContain('jane.doe');
  });

  const model = 'vendora-sonnet-4-6';
  const answers = {
    'chat': async () => (await openAIClient(app.url).chat.completions.create({ model, messages: [{ role: 'user', content: PROMPT }] })).choices[0]?.message.content,
    'chat, streamed': async () => {
      let text = '';
      const stream = await openAIClient(app.url).chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: PROMPT }] });
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      return text;
    },
    'messages': async () => {
      const message = await anthropicClient(app.url).messages.create({ model, max_tokens: 64, messages: [{ role: 'user', content: PROMPT }] });
      return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    },
    'messages, streamed': async () => {
      const message = await anthropicClient(app.url).messages.stream({ model, max_tokens: 64, messages: [{ role: 'user', content: PROMPT }] }).finalMessage();
      return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    },
    'Responses': async () => (await openAIClient(app.url).responses.create({ model, input: PROMPT, store: false })).output_text,
    'Responses, streamed': async () => (await openAIClient(app.url).responses.stream({ model, input: PROMPT, store: false }).finalResponse()).output_text,
  } as const;

  it.each(Object.keys(answers) as (keyof typeof answers)[])('redacts the echo on the way back: %s', async (name) => {
    expect(await answers[name]()).toBe(ECHO_REDACTED);
  });
});

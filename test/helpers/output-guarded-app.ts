/**
 * The gateway of the output-guard suites: the PII redactor and a
 * deny-list on answers only, over the two guard upstreams (a chat route
 * and a messages route, each serving both interfaces), with an OpenAI and
 * an Anthropic client on it.
 */
import Anthropic from '@anthropic-ai/sdk';
import { denyList, messagesUpstream, openAICompatible, piiRedactor } from 'modelgate';
import OpenAI from 'openai';
import type { startGuardUpstreams } from './guard-upstreams.js';
import { type Mount, type StartedApp, startApp } from './start-app.js';

const KEY = 'sk-guard-test-0000000000';

export interface OutputGuardedApp {
  app: StartedApp;
  openai: OpenAI;
  anthropic: Anthropic;
}

/** Starts the gateway on `mount` in front of `upstreams`. */
export async function startOutputGuardedApp(mount: Mount, upstreams: Awaited<ReturnType<typeof startGuardUpstreams>>): Promise<OutputGuardedApp> {
  const app = await startApp(mount, {
    auth: { keys: [KEY] },
    guards: [piiRedactor(), denyList({ terms: ['project nightingale'], input: false })],
    routes: [
      { match: 'via-chat', upstream: openAICompatible({ baseURL: `${upstreams.chat.url}/v1`, apiKey: 'sk-up', name: 'chat-up' }), serveMessages: true },
      { match: 'via-messages', upstream: messagesUpstream({ baseURL: upstreams.messages.url, apiKey: 'sk-up', name: 'messages-up' }), serveMessages: true },
    ],
    defaultMaxTokens: 256,
  });
  return {
    app,
    openai: new OpenAI({ baseURL: `${app.url}/v1`, apiKey: KEY, maxRetries: 0 }),
    anthropic: new Anthropic({ baseURL: app.url, apiKey: KEY, maxRetries: 0 }),
  };
}

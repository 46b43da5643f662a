/**
 * Upstream base URLs checked where they are written: an endpoint path at the
 * end is refused when the client is created, a chat base URL without a
 * version segment is warned about when a gateway is created with it.
 */
import { createGateway, messagesUpstream, openAICompatible } from 'modelgate';
import { describe, expect, it, vi } from 'vitest';
import { hasVersion } from '../../../src/upstreams/base-url-checks.js';
import { problemAt, problemsOf } from '../options/problems-of.js';

describe('openAICompatible base URL', () => {
  it.each([
    ['http://127.0.0.1:9101/v1/chat/completions', '/chat/completions', 'http://127.0.0.1:9101/v1'],
    ['http://127.0.0.1:9101/v1/chat/completions/', '/chat/completions', 'http://127.0.0.1:9101/v1'],
    ['https://api.example.com/v1/completions', '/completions', 'https://api.example.com/v1'],
    ['https://api.example.com/v1/responses', '/responses', 'https://api.example.com/v1'],
  ])('refuses %s, which ends in an endpoint path, and says what to give instead', (baseURL, ending, base) => {
    const message = problemAt(problemsOf(() => openAICompatible({ baseURL })), 'baseURL');
    expect(message).toContain(`ends in the endpoint path ${ending}`);
    expect(message).toContain(`give the base URL without it (${base}`);
    expect(message).toContain('the client adds /chat/completions');
  });

  it('refuses a messages endpoint and points at messagesUpstream', () => {
    const message = problemAt(problemsOf(() => openAICompatible({ baseURL: 'https://api.example.com/v1/messages' })), 'baseURL');
    expect(message).toMatch(/^ends in \/messages.*use messagesUpstream/);
  });

  it.each(['https://api.openai.com/v1', 'http://127.0.0.1:9101', 'https://example.com/models', 'https://x.example.com/openai/deployments/gpt?api-version=2024-10-21'])(
    'accepts %s',
    (baseURL) => {
      expect(openAICompatible({ baseURL }).format).toBe('chat');
    },
  );
});

describe('messagesUpstream base URL', () => {
  it.each([
    ['https://api.example.com/v1/messages', '/v1/messages', 'https://api.example.com'],
    ['http://127.0.0.1:9102/v1/messages/count_tokens', '/v1/messages/count_tokens', 'http://127.0.0.1:9102'],
    ['https://proxy.example.com/anthropic/messages', '/messages', 'https://proxy.example.com/anthropic'],
  ])('refuses %s, which ends in an endpoint path', (baseURL, ending, base) => {
    const message = problemAt(problemsOf(() => messagesUpstream({ baseURL })), 'baseURL');
    expect(message).toContain(`ends in the endpoint path ${ending}`);
    expect(message).toContain(`e.g. ${base})`);
    expect(message).toContain('the client adds /v1/messages');
  });

  it('still refuses a trailing /v1 with its own message', () => {
    expect(problemAt(problemsOf(() => messagesUpstream({ baseURL: 'https://api.example.com/v1' })), 'baseURL')).toMatch(/^ends in \/v1/);
  });
});

describe('a chat base URL without a version', () => {
  it.each([
    ['https://api.openai.com/v1', true],
    ['https://generativelanguage.googleapis.com/v1beta/openai', true],
    ['https://open.bigmodel.cn/api/paas/v4', true],
    ['https://x.example.com/openai/deployments/gpt?api-version=2024-10-21', true],
    ['http://127.0.0.1:9101', false],
    ['http://127.0.0.1:9101/openai', false],
    ['http://127.0.0.1:9101/vision', false],
  ])('%s has a version: %s', (baseURL, expected) => {
    expect(hasVersion(new URL(baseURL))).toBe(expected);
  });

  it('is warned about once, through the gateway logger, naming the upstream and the URL it calls', () => {
    const warn = vi.fn();
    const logger = { warn, info: vi.fn(), error: vi.fn(), debug: vi.fn(), child: () => logger };
    const local = openAICompatible({ baseURL: 'http://127.0.0.1:9101/?key=secret-in-query', name: 'local' });
    const good = openAICompatible({ baseURL: 'http://127.0.0.1:9102/v1', name: 'good' });
    createGateway({
      auth: { keys: ['sk-a-long-enough-key-0123456789'] },
      logger,
      routes: [
        { match: 'a', upstream: local, fallbacks: [good] },
        { match: 'b', upstream: good, fallbacks: [local] },
      ],
    });
    const ours = warn.mock.calls.filter(([fields]) => (fields as { event?: string }).event === 'upstream_base_url_without_version');
    expect(ours).toHaveLength(1);
    const message = String(ours[0]![1]);
    expect(message).toContain('"local"');
    expect(message).toContain('http://127.0.0.1:9101/chat/completions');
    expect(message).toContain('Add /v1 (http://127.0.0.1:9101/v1)');
    expect(message).not.toContain('secret-in-query');
    expect(warn.mock.calls.some(([, text]) => String(text).includes('"good"'))).toBe(false);
  });
});

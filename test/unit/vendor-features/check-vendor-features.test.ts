import { describe, expect, it } from 'vitest';
import { type GatewayError, isGatewayError } from '../../../src/errors.js';
import { compileBetaPolicy } from '../../../src/vendor-features/beta-policy.js';
import { checkVendorFeatures, type VendorFeatureRequest } from '../../../src/vendor-features/check-vendor-features.js';

const DEFAULT = compileBetaPolicy(undefined, false);
const hi = [{ role: 'user', content: 'Hi' }];

function refusal(request: Partial<VendorFeatureRequest>, policy = DEFAULT): GatewayError {
  try {
    checkVendorFeatures({ headers: {}, body: { messages: hi }, shape: 'messages', ...request }, policy);
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const passes = (request: Partial<VendorFeatureRequest>, policy = DEFAULT): void =>
  checkVendorFeatures({ headers: {}, body: { messages: hi }, shape: 'messages', ...request }, policy);

describe('checkVendorFeatures: betas', () => {
  it('a files beta in the header is a 400 naming the beta and the route option', () => {
    const error = refusal({ headers: { 'anthropic-beta': 'claude-code-20250219, files-api-2025-04-14' } });
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.param).toBe('anthropic-beta');
    expect(error.message).toContain('`files-api-2025-04-14`');
    expect(error.message).toContain("betas: { allow: ['*', 'files-api-*'] }");
  });

  it('repeated header lines, any case of the name, and a body anthropic_beta are all read', () => {
    expect(refusal({ headers: { 'anthropic-beta': ['interleaved-thinking-2025-05-14', 'mcp-client-2025-11-20'] } }).message).toContain('mcp-client-2025-11-20');
    expect(refusal({ headers: { 'Anthropic-Beta': 'code-execution-2025-08-25' } }).message).toContain('code-execution-2025-08-25');
    expect(refusal({ body: { messages: hi, anthropic_beta: ['skills-2025-10-02'] } }).message).toContain('skills-2025-10-02');
  });

  it("Claude Code's betas and unknown ones pass by default", () => {
    passes({ headers: { 'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14,context-1m-2025-08-07' } });
    passes({ headers: { 'anthropic-beta': 'some-new-beta-2099-01-01' } });
  });

  it('a beta a strict list does not name gets a 400 telling the operator to add it', () => {
    const error = refusal({ headers: { 'anthropic-beta': 'context-1m-2025-08-07' } }, compileBetaPolicy({ allow: ['claude-code-*'] }, false));
    expect(error.message).toMatch(/^anthropic-beta `context-1m-2025-08-07` is not allowed on this route: send the request without it\./);
    expect(error.message).toContain('betas.allow');
  });

  it('a long beta is cut in the message', () => {
    const long = `files-api-${'x'.repeat(5000)}`;
    expect(refusal({ headers: { 'anthropic-beta': long } }).message.length).toBeLessThan(1000);
  });
});

describe('checkVendorFeatures: account-held fields without a beta', () => {
  const fileSource = { type: 'file', file_id: 'file_011' };

  it('messages: a file source, nested or not, a container_upload, mcp_servers, container, a code execution tool', () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }, { type: 'document', source: fileSource }] }] }, 'messages.0.content.1.source', 'files-api-*'],
      [{ messages: [{ role: 'user', content: [{ type: 'image', source: fileSource }] }] }, 'messages.0.content.0.source', 'files-api-*'],
      [
        { messages: [hi[0], { role: 'assistant', content: 'ok' }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'image', source: fileSource }] }] }] },
        'messages.2.content.0.content.0.source',
        'files-api-*',
      ],
      [{ messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'content', content: [{ type: 'image', source: fileSource }] } }] }] }, 'messages.0.content.0.source.content.0.source', 'files-api-*'],
      [{ messages: [{ role: 'user', content: [{ type: 'container_upload', file_id: 'file_1' }] }] }, 'messages.0.content.0', 'files-api-*'],
      [{ messages: hi, mcp_servers: [{ type: 'url', url: 'http://10.0.0.1/mcp', name: 'x' }] }, 'mcp_servers', 'mcp-client-*'],
      [{ messages: hi, container: 'container_1' }, 'container', 'code-execution-*'],
      [{ messages: hi, tools: [{ name: 'f', input_schema: { type: 'object' } }, { type: 'code_execution_20250825', name: 'code_execution' }] }, 'tools.1', 'code-execution-*'],
    ];
    for (const [body, param, allow] of cases) {
      const error = refusal({ body });
      expect(error.status, param).toBe(400);
      expect(error.param, param).toBe(param);
      expect(error.message, param).toContain(`\`${param}\``);
      expect(error.message, param).toContain(`betas: { allow: ['*', '${allow}'] }`);
      passes({ body }, compileBetaPolicy({ allow: ['*', allow] }, false));
      passes({ body }, compileBetaPolicy(undefined, true));
    }
  });

  it('chat: a file part by id; responses: an input_file by id (inline data and URLs pass)', () => {
    const chat = { messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }, { type: 'file', file: { file_id: 'file-abc' } }] }] };
    expect(refusal({ body: chat, shape: 'chat' }).param).toBe('messages.0.content.1.file.file_id');
    passes({ body: { messages: [{ role: 'user', content: [{ type: 'file', file: { file_data: 'data:application/pdf;base64,AAAA' } }] }] }, shape: 'chat' });
    const responses = { input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-abc' }] }] };
    expect(refusal({ body: responses, shape: 'responses' }).param).toBe('input.0.content.0.file_id');
    const output = { input: [{ type: 'function_call_output', call_id: 'c', output: [{ type: 'input_file', file_id: 'file-abc' }] }] };
    expect(refusal({ body: output, shape: 'responses' }).param).toBe('input.0.output.0.file_id');
    passes({ body: { input: [{ role: 'user', content: [{ type: 'input_file', file_url: 'https://example.com/a.pdf' }] }] }, shape: 'responses' });
  });

  it('ordinary requests pass: text, base64 and URL sources, client tools, a tool result', () => {
    passes({
      body: {
        messages: [
          { role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }, { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'AAAA' } }] },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: { source: { type: 'file', file_id: 'in tool input: not a source' } } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'done' }] },
        ],
        tools: [{ name: 'f', input_schema: { type: 'object' } }, { type: 'web_search_20250305', name: 'web_search' }],
      },
    });
  });
});

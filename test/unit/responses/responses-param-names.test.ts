/**
 * A refusal of the chat pivot names the Responses field the caller sent
 * (`reasoning.effort`, not `reasoning_effort`), in `param` and in the message.
 */
import { createGateway } from 'modelgate';
import { createFetchHandler } from 'modelgate/fetch';
import { createSimulator } from 'modelgate/testing';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors.js';
import { inResponsesTerms, responsesParamOf } from '../../../src/responses/responses-param-names.js';

describe('responsesParamOf', () => {
  it.each([
    ['reasoning_effort', 'reasoning.effort'],
    ['max_completion_tokens', 'max_output_tokens'],
    ['verbosity', 'text.verbosity'],
    ['response_format', 'text.format'],
    ['response_format.type', 'text.format.type'],
    ['response_format.json_schema.schema', 'text.format.schema'],
    ['response_format.json_schema', 'text.format'],
    ['temperature', 'temperature'],
    ['tools[0].function.name', 'tools[0].function.name'],
    ['reasoning_effort_extra', 'reasoning_effort_extra'],
  ])('%s → %s', (chat, responses) => {
    expect(responsesParamOf(chat)).toBe(responses);
  });
});

describe('inResponsesTerms', () => {
  it('renames the field in param and in the message, keeping code, status and chat code', () => {
    const error = new GatewayError('UNSUPPORTED_PARAMETER', '`reasoning_effort` is not supported for model "m". Remove `reasoning_effort`.', {
      param: 'reasoning_effort',
      chatCode: 'unsupported_parameter',
    });
    const renamed = inResponsesTerms(error) as GatewayError;
    expect(renamed).toBeInstanceOf(GatewayError);
    expect(renamed.message).toBe('`reasoning.effort` is not supported for model "m". Remove `reasoning.effort`.');
    expect(renamed).toMatchObject({ code: 'UNSUPPORTED_PARAMETER', status: 400, param: 'reasoning.effort', chatCode: 'unsupported_parameter' });
  });

  it('leaves other errors as they are', () => {
    const same = new GatewayError('INVALID_REQUEST', '`temperature` is too high.', { param: 'temperature' });
    expect(inResponsesTerms(same)).toBe(same);
    const plain = new Error('boom');
    expect(inResponsesTerms(plain)).toBe(plain);
  });
});

describe('POST /v1/responses refused by a rule of the model', () => {
  it('names reasoning.effort for a model without extended thinking', async () => {
    const sim = createSimulator();
    const handler = createFetchHandler(createGateway({ auth: { keys: ['sk-unit-0123456789'] }, routes: [{ match: '*', upstream: sim.upstreams.messages }] }));
    const response = await handler(
      new Request('http://gateway.test/v1/responses', {
        method: 'POST',
        headers: { authorization: 'Bearer sk-unit-0123456789', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'vendora-fable-5', input: 'Hello', reasoning: { effort: 'low' } }),
      }),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string; param: string; code: string } };
    expect(body.error).toMatchObject({ param: 'reasoning.effort', code: 'unsupported_parameter' });
    expect(body.error.message).toMatch(/^`reasoning\.effort` is not supported for model "vendora-fable-5"/);
    expect(body.error.message).not.toContain('reasoning_effort');
  });
});

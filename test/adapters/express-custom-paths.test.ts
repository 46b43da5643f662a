/**
 * Step pipelines at paths of the app's own choosing (`mg.steps(endpoint)`):
 * the steps present the endpoint's canonical path to the core, so
 * authentication, validation, rules and the call behave as on `/v1/...`,
 * on Express 4 and 5, with and without `express.json()`.
 */
import type { Server } from 'node:http';
import express5, { type NextFunction, type Request, type Response } from 'express';
import express4 from 'express4';
import type { GatewayContext } from 'modelgate';
import { expressGateway } from 'modelgate/express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customPathCases } from '../helpers/custom-path-cases.js';
import { AUTH } from '../helpers/e2e-fixtures.js';
import { listen } from '../helpers/start-app.js';

describe.each([
  ['express 5', express5, false],
  ['express 4', express4, false],
  ['express 5 + express.json()', express5, true],
  ['express 4 + express.json()', express4, true],
] as const)('steps at custom paths on %s', (_name, express, parseJson) => {
  let server: { url: string; server: Server; close(): Promise<void> };
  const seen: string[] = [];

  beforeAll(async () => {
    const mg = expressGateway({ auth: AUTH });
    const app = express();
    if (parseJson) app.use(express.json({ limit: '50mb' }));
    const note = (_req: Request, res: Response, next: NextFunction) => {
      seen.push((res.locals.modelgate as GatewayContext).principal?.id ?? 'none');
      next();
    };
    const chat = mg.steps('chat.completions');
    app.post('/ai/chat', chat.authenticate, note, chat.validate, chat.enforceRules, chat.dispatch);
    const messages = mg.steps('messages');
    app.post('/ai/claude', messages.authenticate, note, messages.dispatch);
    app.post('/ai/count', mg.steps('messages.count_tokens').dispatch);
    server = await listen(app as never);
  });
  afterAll(async () => {
    await server.close();
  });

  customPathCases(() => server.url, seen);

  it('gives each endpoint one bound step set', () => {
    const mg = expressGateway({ auth: AUTH });
    expect(mg.steps('messages')).toBe(mg.steps('messages'));
    expect(mg.steps('messages')).not.toBe(mg.steps('chat.completions'));
  });
});

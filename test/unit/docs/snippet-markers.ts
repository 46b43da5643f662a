/**
 * The markers a documentation snippet may carry, as an HTML comment on the
 * line right before its fence (invisible on GitHub):
 *
 *     <!-- snippet: fastify-app -->
 *     ```ts
 *     const mg = app.modelgate;
 *     ```
 *
 * Several markers are separated by commas. Every `ts`/`js` snippet is
 * type-checked as a module of its own; a marker adds to that:
 *
 * - a context name below: declarations put before the snippet (for a fragment
 *   that uses an `app` it does not create) or checks put after it;
 * - `file=<name>.ts`: the snippet's file name, so another snippet of the same
 *   page can import it (`import './telemetry.js'`);
 * - `run`: the snippet is also run, by `snippets.test.ts`, with the modules it
 *   may import listed there. A snippet that imports `vitest` declares tests,
 *   which run as tests of that file.
 */

export interface SnippetContext {
  /** What the fragment may assume, for readers of this file. */
  meaning: string;
  /** Put before the snippet (declarations only: nothing runs). */
  before?: string;
  /** Put after the snippet (checks only). */
  after?: string;
}

export const SNIPPET_CONTEXTS: Record<string, SnippetContext> = {
  'azure-identity': {
    meaning: "`DefaultAzureCredential` and `getBearerTokenProvider` are @azure/identity's (an optional package the tests do not install), as the snippet's comment imports them.",
    before: [
      'declare class DefaultAzureCredential { constructor(options?: object); }',
      'declare function getBearerTokenProvider(credential: DefaultAzureCredential, scopes: string | string[]): () => Promise<string>;',
    ].join('\n'),
  },
  'fastify-app': {
    meaning: '`app` is a Fastify instance with `fastifyGateway` registered (so `app.modelgate` is set).',
    before: "import 'modelgate/fastify';\ndeclare const app: import('fastify').FastifyInstance;",
  },
  'listen-backlog': {
    meaning: '`app` is an Express app, `server` a node:http server, `fastify` a Fastify instance.',
    before: [
      "declare const app: import('express').Express;",
      "declare const server: import('node:http').Server;",
      "declare const fastify: import('fastify').FastifyInstance;",
    ].join('\n'),
  },
  'same-as-core-types': {
    meaning: 'The snippet declares `GatewayRequest` and `GatewayResponse`; they must be the types modelgate exports.',
    after: [
      'type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
      "export const requestTypeIsTheCoreOne: Same<GatewayRequest, import('modelgate').GatewayRequest> = true;",
      "export const responseTypeIsTheCoreOne: Same<GatewayResponse, import('modelgate').GatewayResponse> = true;",
    ].join('\n'),
  },
};

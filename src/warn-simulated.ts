/**
 * The warning a gateway gives, once, when it serves an answer of the
 * simulator while `NODE_ENV` is `production`: the embedded simulator
 * answers every model id when no `routes` are configured, and its made-up
 * text must not reach production users unnoticed.
 *
 * @internal
 */
import type { GatewayLogger } from './observability/options.js';
import { SIMULATED_HEADER } from './upstreams/simulated-headers.js';

/** The warning's text. */
export const SIMULATED_IN_PRODUCTION_WARNING =
  'modelgate: NODE_ENV is production, but this gateway served an answer of its simulator (made-up text, not a model): ' +
  'without the `routes` option the embedded simulator answers every model. Configure `routes` with real upstreams ' +
  `(openAICompatible / messagesUpstream). Simulated answers carry \`${SIMULATED_HEADER}: true\`.`;

/**
 * A function to call for each simulated answer: the first one served while
 * `NODE_ENV` is `production` is reported through `logger.warn` (with
 * `component: 'modelgate'`), or on stderr when there is no logger
 * (nowhere with `logger: false`); later ones are not.
 */
export function createSimulatedWarning(logger: GatewayLogger | false | undefined): () => void {
  let warned = logger === false;
  return () => {
    if (warned || process.env.NODE_ENV !== 'production') return;
    warned = true;
    try {
      if (logger) logger.warn({ component: 'modelgate', event: 'simulated_in_production' }, SIMULATED_IN_PRODUCTION_WARNING);
      else process.stderr.write(`${SIMULATED_IN_PRODUCTION_WARNING}\n`);
    } catch {
      // A failing logger must not change the response.
    }
  };
}

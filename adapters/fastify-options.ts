/**
 * The options of the Fastify plugin: the gateway's (or a gateway, as is or
 * as `{ gateway }`) plus the plugin's own `prefix` and `decorate`, and the
 * options Fastify's `register` reads itself.
 */
import { z } from 'zod';
import type { Gateway } from '../src/gateway.js';
import type { GatewayOptions } from '../src/gateway-options.js';
import { GATEWAY_OPTIONS_EXPECTED, GATEWAY_OPTIONS_SHAPE, MOVED_OPTIONS } from '../src/options/gateway-options-schema.js';
import { flag, got, optionsObject, shaped, timerMs } from '../src/options/option-schemas.js';
import { assertOptions } from '../src/options/parse-options.js';
import { isGateway } from './to-gateway.js';

const ENTRY = 'fastifyGateway';

const PLUGIN_SHAPE = {
  prefix: z.string({ error: (issue) => `must be a path prefix such as "/ai" (got ${got(issue.input)})` }).optional(),
  decorate: flag().optional(),
  baseUrlHints: flag().optional(),
  shutdownGraceMs: timerMs('how long calls in progress may still run when the app closes').optional(),
  // Read by Fastify's `register` itself.
  logLevel: z.string({ error: (issue) => `must be a log level name (got ${got(issue.input)})` }).optional(),
  logSerializers: z.record(z.string(), z.unknown()).optional(),
};

const withOptionsSchema = optionsObject({ ...GATEWAY_OPTIONS_SHAPE, ...PLUGIN_SHAPE }, 'a fastifyGateway', GATEWAY_OPTIONS_EXPECTED, MOVED_OPTIONS);

const withGatewaySchema = optionsObject(
  {
    gateway: shaped<Gateway>(isGateway, (value) => `must be a gateway made by \`createGateway(...)\` (got ${got(value)})`),
    ...PLUGIN_SHAPE,
  },
  'a fastifyGateway',
  '`{ gateway, prefix?, decorate?, baseUrlHints?, shutdownGraceMs? }`',
);

/** A gateway passed as the options object itself: only the plugin's own options are checked. */
const asGatewaySchema = z.looseObject(PLUGIN_SHAPE);

/** Checks the plugin's options; returns the gateway or the gateway's options in them. */
export function readFastifyOptions(options: unknown): Gateway | GatewayOptions {
  if (typeof options === 'object' && options !== null && 'gateway' in options) {
    assertOptions(withGatewaySchema, options, ENTRY);
    return (options as { gateway: Gateway }).gateway;
  }
  if (isGateway(options)) {
    assertOptions(asGatewaySchema, options, ENTRY);
    return options;
  }
  assertOptions(withOptionsSchema, options, ENTRY);
  const { prefix: _prefix, decorate: _decorate, baseUrlHints: _baseUrlHints, shutdownGraceMs: _shutdownGraceMs, logLevel: _logLevel, logSerializers: _logSerializers, ...gatewayOptions } = options as GatewayOptions &
    Record<keyof typeof PLUGIN_SHAPE, unknown>;
  return gatewayOptions;
}

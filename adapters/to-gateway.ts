/** The one entry-point rule every adapter shares: accept a gateway or the options to create one. */
import { createGateway, type Gateway } from '../src/gateway.js';
import type { GatewayOptions } from '../src/gateway-options.js';
import { gatewayOptionsSchema } from '../src/options/gateway-options-schema.js';
import { assertOptions } from '../src/options/parse-options.js';

/** A gateway, or the options to create one. */
export type GatewayOrOptions = Gateway | GatewayOptions;

/** True for a gateway made by `createGateway` (or an object standing in for one). */
export function isGateway(value: unknown): value is Gateway {
  return typeof value === 'object' && value !== null && typeof (value as Gateway).handle === 'function';
}

/**
 * Accepts a gateway or its options, like every adapter entry point. Options
 * are checked here, so that a `GatewayConfigError` names the entry point the
 * app called (`expressGateway`, ...).
 */
export function toGateway(value: GatewayOrOptions, entry = 'createGateway'): Gateway {
  if (isGateway(value)) return value;
  assertOptions(gatewayOptionsSchema, value, entry);
  return createGateway(value);
}

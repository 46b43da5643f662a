/** The one entry-point rule every adapter shares: accept a gateway or the options to create one. */
import { createGateway, type Gateway } from '../src/gateway.js';
import type { GatewayOptions } from '../src/gateway-options.js';

/** A gateway, or the options to create one. */
export type GatewayOrOptions = Gateway | GatewayOptions;

/** Accepts a gateway or its options, like every adapter entry point. */
export function toGateway(value: GatewayOrOptions): Gateway {
  return typeof (value as Gateway).handle === 'function' ? (value as Gateway) : createGateway(value as GatewayOptions);
}

/**
 * The same check as core.mts from a CommonJS file: under node16 resolution
 * this reads the `require` declarations (`.d.cts`).
 */
import { createGateway, type GatewayOptions } from 'modelgate';
import { createFetchHandler } from 'modelgate/fetch';
import { createNodeHandler } from 'modelgate/node';
import { createSimulator } from 'modelgate/testing';

const options: GatewayOptions = { auth: { keys: ['sk-app'] }, openTelemetry: true };
const gateway = createGateway(options);
export const handlers = [createFetchHandler(gateway), createNodeHandler(gateway)] as const;
export const simulator = createSimulator();

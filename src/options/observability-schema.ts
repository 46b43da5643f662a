/**
 * The observability options: `logger`, `openTelemetry`, `prometheus`.
 *
 * @internal
 */
import type { z } from 'zod';
import type { GatewayLogger, OpenTelemetryOptions, PrometheusOptions } from '../observability/options.js';
import { type Assert, either, flag, got, isObject, optionsObject, type SameOptions, shaped } from './option-schemas.js';

const LOGGER_METHODS = ['info', 'warn', 'error', 'debug', 'child'] as const;

export const loggerSchema = shaped<GatewayLogger | false>(
  (value) => value === false || (isObject(value) && LOGGER_METHODS.every((method) => typeof value[method] === 'function')),
  (value) => {
    if (!isObject(value)) return `must be a pino-shaped logger (pino, or an object with ${LOGGER_METHODS.join(', ')}), or false to silence the gateway (got ${got(value)})`;
    const missing = LOGGER_METHODS.filter((method) => typeof value[method] !== 'function');
    const consoleHint = missing.length === 1 && missing[0] === 'child' ? ' (`console` has no `child`: use pino, or wrap console)' : '';
    return `has no ${missing.map((method) => `\`${method}\``).join(', ')} method${missing.length > 1 ? 's' : ''}: the gateway needs a pino-shaped logger with ${LOGGER_METHODS.join(', ')}${consoleHint}`;
  },
);

const provider = <T>(method: string, what: string) =>
  shaped<T>(
    (value) => isObject(value) && typeof value[method] === 'function',
    (value) => `must be an OpenTelemetry ${what} (an object with ${method}()) (got ${got(value)})`,
  );

export const openTelemetryObjectSchema = optionsObject(
  {
    tracerProvider: provider<NonNullable<OpenTelemetryOptions['tracerProvider']>>('getTracer', 'TracerProvider').optional(),
    meterProvider: provider<NonNullable<OpenTelemetryOptions['meterProvider']>>('getMeter', 'MeterProvider').optional(),
    captureContent: flag().optional(),
  },
  'an `openTelemetry`',
  '`true` or `{ tracerProvider?, meterProvider?, captureContent? }`',
);

export const openTelemetrySchema = either<boolean | OpenTelemetryOptions>((value) => {
  if (typeof value === 'boolean') return undefined;
  if (isObject(value) && !Array.isArray(value)) return openTelemetryObjectSchema;
  return `must be true (the global providers) or \`{ tracerProvider?, meterProvider?, captureContent? }\` (got ${got(value)})`;
});

/** A Prometheus metric name prefix. */
const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

export const prometheusSchema = optionsObject(
  {
    registry: shaped<PrometheusOptions['registry']>(
      (value) => isObject(value) && typeof value.registerMetric === 'function' && typeof value.getSingleMetric === 'function',
      (value) =>
        value === undefined
          ? 'is missing: give your prom-client Registry (`register`, or `new Registry()`)'
          : `must be a prom-client Registry (\`register\`, or \`new Registry()\`) (got ${got(value)})`,
    ),
    prefix: shaped<string>(
      (value) => typeof value === 'string' && METRIC_NAME.test(value),
      (value) => `must start a Prometheus metric name: letters, digits, \`_\` and \`:\`, not starting with a digit, e.g. "modelgate_" (got ${typeof value === 'string' ? JSON.stringify(value) : got(value)})`,
    ).optional(),
    principalLabel: flag().optional(),
  },
  'a `prometheus`',
  '`{ registry, prefix?, principalLabel? }`',
);

type _OpenTelemetry = Assert<SameOptions<z.input<typeof openTelemetryObjectSchema>, OpenTelemetryOptions>>;
type _Prometheus = Assert<SameOptions<z.input<typeof prometheusSchema>, PrometheusOptions>>;

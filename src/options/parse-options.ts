/**
 * Checks options against their schema once, at construction, and throws a
 * `GatewayConfigError` listing every problem.
 *
 * @internal
 */
import type { z } from 'zod';
import { toConfigProblems } from './config-issues.js';
import { GatewayConfigError } from './gateway-config-error.js';

/**
 * Throws a `GatewayConfigError` naming `entry` (`createGateway`,
 * `openAICompatible`, …) unless `value` passes `schema`. The value is left as
 * it is: the caller keeps using its own object (the schemas transform nothing).
 */
export function assertOptions(schema: z.ZodType, value: unknown, entry: string): void {
  const result = schema.safeParse(value);
  if (!result.success) throw new GatewayConfigError(entry, toConfigProblems(result.error.issues));
}

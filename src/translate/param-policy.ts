/**
 * What to do with an input field the target format cannot express: reject
 * it with a 400 naming the field, or (with `dropUnsupportedParams`) drop it
 * and record a warning. Nothing is lost without one or the other.
 */
import { GatewayError } from '../errors.js';

/** @internal */
export interface ParamPolicy {
  /** Warnings collected so far (dropped fields). */
  readonly warnings: string[];
  /**
   * Rejects `param` (throws `UNSUPPORTED_PARAMETER`), or drops it with a
   * warning when dropping is on. `reason` completes "`param` is not
   * supported ...".
   */
  unsupported(param: string, reason: string): void;
  /** Records a warning (once per distinct message) for something always dropped: a harmless hint. */
  warn(message: string): void;
}

/** @internal */
export function createParamPolicy(options: { dropUnsupportedParams?: boolean | undefined }): ParamPolicy {
  const warnings: string[] = [];
  return {
    warnings,
    unsupported(param, reason) {
      const message = `\`${param}\` is not supported ${reason}`;
      if (options.dropUnsupportedParams) {
        warnings.push(`Dropped ${message}.`);
        return;
      }
      throw new GatewayError(
        'UNSUPPORTED_PARAMETER',
        `${message}. Remove it, or enable dropUnsupportedParams to have it dropped.`,
        { param, chatCode: 'unsupported_parameter' },
      );
    },
    warn(message) {
      // The same hint on many blocks is one warning, not one per block.
      if (!warnings.includes(message)) warnings.push(message);
    },
  };
}

/**
 * A 400 for input that is malformed rather than unsupported (bad tool call
 * arguments, a bad data URL).
 * @internal
 */
export function invalidParam(param: string, message: string): GatewayError {
  return new GatewayError('INVALID_REQUEST', message, { param, chatCode: 'invalid_value' });
}

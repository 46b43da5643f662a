/**
 * Draft of the tool-call id format until the shared carrier lands:
 * `call_<stable part>` and, when a sealed signature rides along,
 * `.<sealed signature>`.
 *
 * @internal
 */

/** The tool-call id for a call whose distinct, stable part is `stable`. */
export function makeToolCallId(stable: string, sealedSignature?: string): string {
  return sealedSignature === undefined ? `call_${stable}` : `call_${stable}.${sealedSignature}`;
}

/**
 * Whether a key may use a model: the one check behind the 403 on model
 * calls, the rules that run before it, and the model listing, so a key
 * sees exactly the models it may call.
 */
import type { Principal } from '../types.js';

/** True when `principal` may call (and see) `model`: always without `allowedModels`, else when it names the model. */
export function isModelAllowed(principal: Principal | undefined, model: string): boolean {
  const allowed = principal?.allowedModels;
  return allowed === undefined || allowed.includes(model);
}

/**
 * Whether a principal may call (and see) a model: its `allowedModels`
 * entries are matched as route `match` strings are, exact ids and globs
 * (`local-*`, `gpt-4o?`), so a key's list reads like the routes it uses.
 */
import { compileMatcher } from '../models/model-matcher.js';
import type { Principal } from '../types.js';

/**
 * Compiled once per list: a static key's list lives as long as the gateway,
 * and a `verify` that returns a new list per call lets the old one go.
 */
const compiled = new WeakMap<readonly string[], (model: string) => boolean>();

function compileAllowed(allowed: readonly string[]): (model: string) => boolean {
  const matchers = allowed.map((entry) => compileMatcher(entry));
  return (model) => matchers.some((matches) => matches(model));
}

/**
 * True when `principal` may use `model`: it has no `allowedModels`, or one
 * of them is the id or a glob matching it (`*` any run, `?` one character,
 * case-sensitive, the whole id). Without a principal, every model.
 */
export function isModelAllowed(principal: Principal | Pick<Principal, 'allowedModels'> | undefined, model: string): boolean {
  const allowed = principal?.allowedModels;
  if (allowed === undefined) return true;
  let matches = compiled.get(allowed);
  if (matches === undefined) {
    matches = compileAllowed(allowed);
    compiled.set(allowed, matches);
  }
  return matches(model);
}

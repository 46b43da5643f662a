/**
 * A guard returned something the gateway cannot apply: not a decision,
 * spans out of range, overlapping or cutting a character in two, or more
 * replacement than the bounds allow. Handled like a thrown error, under
 * the guard's `onError`: a bad decision never corrupts a body.
 */
export class GuardDecisionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GuardDecisionError';
  }
}

/**
 * What building an input view returns, for every interface.
 */
import type { GuardInputView } from './guard-types.js';
import type { TextLocations } from './text-locations.js';

/** A request's view, and where each of its parts lives in the body (for writing replacements back). */
export interface InputViewResult {
  view: GuardInputView;
  locations: TextLocations;
}

/** Who made the call, as the view reports it. */
export interface InputViewOptions {
  principal?: string;
}

/**
 * The defaults and bounds of guards, in one place: the docs, the options
 * schema and the runners read them from here.
 */

/** Time for one guard call, in ms. */
export const DEFAULT_GUARD_TIMEOUT_MS = 2000;

/** A guard that fails refuses the call unless it says `onError: 'open'`. */
export const DEFAULT_GUARD_ON_ERROR = 'closed' as const;

/** Characters of streamed text an output guard holds back by default. */
export const DEFAULT_HOLDBACK_CHARS = 64;

/** Under `holdback: 'sentence'`, a sentence longer than this goes out in pieces. */
export const MAX_SENTENCE_CHARS = 2000;

/** Under `holdback: 'sentence'`, characters of sent text a window still shows as context. */
export const SENTENCE_CONTEXT_CHARS = 64;

/** The output channels a guard reads when it does not say. */
export const DEFAULT_OUTPUT_CHANNELS = ['text'] as const;

/** Most replacements one decision may make. */
export const MAX_REPLACEMENTS = 10_000;

/** Most characters of replacement text one decision may write. */
export const MAX_REPLACEMENT_CHARS = 1_048_576;

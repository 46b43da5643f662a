/**
 * The bounded fields of an embeddings body (`schemas/embeddings-request.ts`).
 * The count of `input` entries and their own limits are the schema's (it
 * reads the count before any entry); here the texts are bounded like every
 * other text, and the model id like every other one.
 *
 * @internal
 */
import { type FieldRule, MODEL_RULE, objectRule, TEXT_RULE } from './field-rules.js';

export const EMBEDDINGS_BOUND_FIELDS: FieldRule = objectRule({
  model: MODEL_RULE,
  // One text, or a list of texts (a list of token ids holds no strings).
  input: { string: 'maxTextLength', items: TEXT_RULE },
});

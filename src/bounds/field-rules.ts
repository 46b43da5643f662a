/**
 * How the bounds walk reads one interface's body: which fields are texts,
 * names or the model id, which arrays are counted, and which arrays hold
 * content parts. One rule tree per interface (`chat-bound-fields.ts`,
 * `messages-bound-fields.ts`, `responses-bound-fields.ts`); fields without
 * a rule are only counted for nesting depth.
 *
 * @internal
 */
/** The bounds that cap one string's length. */
export type StringBound = 'maxModelLength' | 'maxNameLength' | 'maxTextLength';
/** The bounds that cap one array's length. */
export type CountBound = 'maxMessages' | 'maxTools';

/** What a field may hold; a value of another kind than the rule speaks of passes (the schema judges it). */
export interface FieldRule {
  /** A string here is at most this bound long. */
  readonly string?: StringBound;
  /** An array here has at most this bound of entries. */
  readonly count?: CountBound;
  /** The entries of an array here are content parts (all of them in the request count towards `maxContentParts`). */
  readonly parts?: boolean;
  /** The rule of each entry of an array here. */
  readonly items?: FieldRule;
  /** The rules of an object's fields, by name (a `Map`: a caller's `__proto__` key finds nothing). */
  readonly fields?: ReadonlyMap<string, FieldRule>;
}

/** An object rule from its fields' rules. */
export function objectRule(fields: Record<string, FieldRule>): FieldRule {
  return { fields: new Map(Object.entries(fields)) };
}

/**
 * An object rule whose fields may refer to the rule itself (a tool result's
 * content holds blocks that hold content).
 */
export function recursiveObjectRule(fieldsOf: (self: FieldRule) => Record<string, FieldRule>): FieldRule {
  const fields = new Map<string, FieldRule>();
  const self: FieldRule = { fields };
  for (const [name, rule] of Object.entries(fieldsOf(self))) fields.set(name, rule);
  return self;
}

export const MODEL_RULE: FieldRule = { string: 'maxModelLength' };
export const NAME_RULE: FieldRule = { string: 'maxNameLength' };
export const TEXT_RULE: FieldRule = { string: 'maxTextLength' };

/** A field that is text, or a list of content parts each read by `part`. */
export function textOrParts(part: FieldRule): FieldRule {
  return { string: 'maxTextLength', parts: true, items: part };
}

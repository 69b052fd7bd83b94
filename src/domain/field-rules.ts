/**
 * How a rule between a body's fields is stated in its JSON Schema, for the documents (docs/control-api.md:
 * The control plane's contract): the schema's own check (a refinement or the rule that reads the
 * body) gives the answer; these say the same rule to a generated client or a contract tester. Each
 * returns metadata for the object schema's `.meta()`.
 */

/** Exactly one of `keys`. A branch names its field, so that generated types require it. */
export const exactlyOneOf = (keys: readonly string[]) => ({ oneOf: keys.map((key) => ({ required: [key], properties: { [key]: true } })) });

/** At least one field, in an object that takes no fields but its own (a strict object). */
export const notEmpty = () => ({ minProperties: 1 });

/** `key` excludes each of `others`. */
export const excludes = (key: string, others: readonly string[]) => ({ not: { required: [key], anyOf: others.map((other) => ({ required: [other] })) } });

/**
 * fast-check values from a document's JSON Schema, as a contract tester (Schemathesis and the like)
 * makes them: every value is valid for the schema as the document states it — types, enums,
 * patterns, formats, bounds, required and closed objects, `oneOf`/`anyOf`, `allOf` with `if`/`then`,
 * `not` — so that a refusal of one is a rule the document does not state. Covers the constructs
 * the sandbox's documents use, and throws on one it does not know. Not shipped.
 */
import fc from 'fast-check';

export type Schema = Record<string, unknown> | boolean;
type Node = Record<string, any>;

/** The pattern without its lookaheads (fast-check cannot generate them): values are filtered by the whole pattern after. */
function withoutLookaheads(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    if (pattern.startsWith('(?!', i) || pattern.startsWith('(?=', i)) {
      let depth = 0;
      for (; i < pattern.length; i++) {
        if (pattern[i] === '\\') i++;
        else if (pattern[i] === '(') depth++;
        else if (pattern[i] === ')' && --depth === 0) break;
      }
      continue;
    }
    out += pattern[i];
  }
  return out;
}

const FORMATS: Record<string, () => fc.Arbitrary<string>> = {
  uuid: () => fc.uuid(),
  'date-time': () => fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  date: () =>
    fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  uri: () => fc.webUrl(),
  byte: () => fc.base64String(),
  email: () => fc.emailAddress(),
};

/**
 * Strings matching `pattern`, made once for each pattern: fast-check's arbitrary for a pattern is
 * costly to make (a negated class is tried against its sample strings) and holds no state.
 */
const MATCHING = new Map<string, fc.Arbitrary<string>>();
function matching(pattern: string): fc.Arbitrary<string> {
  let values = MATCHING.get(pattern);
  if (!values) {
    const whole = new RegExp(pattern);
    values = fc.stringMatching(new RegExp(withoutLookaheads(pattern))).filter((v) => whole.test(v));
    MATCHING.set(pattern, values);
  }
  return values;
}

/** Whether `value` meets the parts of a schema the documents put in `if` and `not`: required fields, field patterns, enums, `anyOf`. */
export function meets(schema: Node, value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const object = value as Record<string, unknown>;
  if (schema.required && !(schema.required as string[]).every((k) => k in object)) return false;
  for (const [key, sub] of Object.entries((schema.properties ?? {}) as Record<string, Node>)) {
    if (!(key in object) || (sub as unknown) === true) continue;
    const field = object[key];
    if (sub.pattern && !(typeof field === 'string' && new RegExp(sub.pattern).test(field))) return false;
    if (sub.enum && !sub.enum.includes(field)) return false;
  }
  if (schema.anyOf && !(schema.anyOf as Node[]).some((s) => meets(s, value))) return false;
  if (schema.not && meets(schema.not, value)) return false;
  return true;
}

/** Values valid for `schema`, whose `$ref`s point into `document`. */
export function valuesOf(document: Node, schema: Schema): fc.Arbitrary<unknown> {
  const resolve = (s: Schema): Node => {
    if (typeof s === 'boolean') return {};
    if (typeof s.$ref === 'string')
      return resolve(
        s.$ref
          .split('/')
          .slice(1)
          .reduce((n: Node, k) => n[k], document),
      );
    return s as Node;
  };
  const of = (raw: Schema): fc.Arbitrary<unknown> => {
    const s = resolve(raw);
    if (s.enum) return fc.constantFrom(...(s.enum as unknown[]));
    if (s.const !== undefined) return fc.constant(s.const);
    const branches = (s.oneOf ?? s.anyOf) as Node[] | undefined;
    if (branches && !s.properties) return fc.oneof(...branches.map(of));
    const type = Array.isArray(s.type) ? s.type[0] : (s.type ?? (s.properties ? 'object' : undefined));
    switch (type) {
      case 'string':
        return string(s);
      case 'integer':
        return fc.integer({ min: s.minimum ?? -1e9, max: s.maximum ?? 1e9 });
      case 'number':
        return fc.double({ min: s.minimum ?? -1e9, max: s.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
      case 'boolean':
        return fc.boolean();
      case 'array':
        return s.uniqueItems
          ? fc.uniqueArray(of(s.items ?? {}), { minLength: s.minItems ?? 0, maxLength: Math.max(s.minItems ?? 0, 3), selector: (v) => JSON.stringify(v) })
          : fc.array(of(s.items ?? {}), { minLength: s.minItems ?? 0, maxLength: Math.max(s.minItems ?? 0, 3) });
      case 'object':
        return object(s);
      default:
        throw new Error(`no values for ${JSON.stringify(s).slice(0, 200)}`);
    }
  };
  const string = (s: Node): fc.Arbitrary<string> => {
    let values: fc.Arbitrary<string>;
    if (s.pattern) values = matching(s.pattern);
    else if (s.format && FORMATS[s.format]) values = FORMATS[s.format]!();
    else values = fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 20, 20) });
    return values.filter((v) => v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity));
  };
  const object = (s: Node): fc.Arbitrary<Record<string, unknown>> => {
    const properties = (s.properties ?? {}) as Record<string, Schema>;
    const branches = (s.oneOf ?? s.anyOf) as Node[] | undefined;
    // A branch adds the fields it requires to the object's own.
    const shapes = (branches ?? [{}]).map((branch) => {
      const required = [...((s.required ?? []) as string[]), ...((branch.required ?? []) as string[])];
      const model = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, of(v)]));
      return fc.record(model, { requiredKeys: required });
    });
    const rules = ((s.allOf ?? []) as Node[]).filter((r) => r.if);
    return fc
      .oneof(...shapes)
      .chain((value) => {
        // `if`/`then`: a field the `then` constrains is drawn again from the `then`'s schema for it.
        const then = rules.filter((r) => meets(r.if, value)).map((r) => r.then.properties as Record<string, Node>);
        if (then.length === 0) return fc.constant(value);
        const redraw = Object.fromEntries(then.flatMap((p) => Object.entries(p)).map(([k, sub]) => [k, of({ ...resolve(properties[k]!), ...sub })]));
        return fc.record(redraw).map((drawn) => ({ ...value, ...drawn }));
      })
      .filter((value) => (s.not ? !meets(s.not, value) : true) && (s.minProperties === undefined || Object.keys(value).length >= s.minProperties))
      .filter((value) => (s.oneOf ? (s.oneOf as Node[]).filter((b) => meets(b, value)).length === 1 : true));
  };
  return of(schema);
}

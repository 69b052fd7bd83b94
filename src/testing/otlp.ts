/**
 * The reading side of OTLP/HTTP for the tracing tests: the spans of an export request as the
 * collector would read them, from protobuf (decoded here from the wire format and the field numbers
 * of opentelemetry-proto's trace.proto, common.proto and resource.proto) or from OTLP's JSON — written
 * apart from the SDK, so that a test checks what went over the wire, not what the SDK meant. Not shipped.
 */
import type { ReceivedRequest } from './receiver.js';

export interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client (OTLP's SpanKind). */
  kind: number;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  links: { traceId: string; spanId: string }[];
  /** 0 unset, 1 ok, 2 error. */
  status: number;
  resource: Record<string, unknown>;
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;

/** A message's fields: number → values in order (varints as bigint, fixed64 as Buffer, length-delimited as Buffer). */
type Fields = Map<number, (bigint | Buffer)[]>;

function readFields(bytes: Buffer): Fields {
  const fields: Fields = new Map();
  let at = 0;
  const varint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (at >= bytes.length) throw new Error('protobuf: a varint runs past the end');
      const byte = bytes[at++]!;
      value |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
  };
  const take = (n: number) => {
    if (at + n > bytes.length) throw new Error('protobuf: a field runs past the end');
    return bytes.subarray(at, (at += n));
  };
  while (at < bytes.length) {
    const key = Number(varint());
    const wire = key & 7;
    const value = wire === 0 ? varint() : wire === 1 ? take(8) : wire === 2 ? take(Number(varint())) : wire === 5 ? take(4) : undefined;
    if (value === undefined) throw new Error(`protobuf: wire type ${wire} is not one OTLP uses`);
    const list = fields.get(key >>> 3) ?? [];
    list.push(value);
    fields.set(key >>> 3, list);
  }
  return fields;
}

const all = (fields: Fields, n: number) => (fields.get(n) ?? []) as Buffer[];
const first = (fields: Fields, n: number) => fields.get(n)?.[0];
const text = (fields: Fields, n: number) => (first(fields, n) as Buffer | undefined)?.toString('utf8') ?? '';
const hex = (fields: Fields, n: number) => (first(fields, n) as Buffer | undefined)?.toString('hex') ?? '';
const int = (fields: Fields, n: number) => Number((first(fields, n) as bigint | undefined) ?? 0n);

/** An AnyValue: string 1, bool 2, int 3, double 4, array 5 (values 1), bytes 7. */
function anyValue(bytes: Buffer): unknown {
  const f = readFields(bytes);
  if (f.has(1)) return text(f, 1);
  if (f.has(2)) return int(f, 2) !== 0;
  if (f.has(3)) return Number(BigInt.asIntN(64, first(f, 3) as bigint));
  if (f.has(4)) return (first(f, 4) as Buffer).readDoubleLE(0);
  if (f.has(5)) return all(readFields(first(f, 5) as Buffer), 1).map(anyValue);
  return (first(f, 7) as Buffer | undefined)?.toString('hex');
}

/** Repeated KeyValue (key 1, value 2) as an object. */
const keyValues = (list: Buffer[]) =>
  Object.fromEntries(
    list.map((kv) => {
      const f = readFields(kv);
      return [text(f, 1), f.has(2) ? anyValue(first(f, 2) as Buffer) : undefined];
    }),
  );

/** ExportTraceServiceRequest → ResourceSpans (resource 1, scope_spans 2) → ScopeSpans (spans 2) → Span. */
function fromProtobuf(body: Buffer): ExportedSpan[] {
  return all(readFields(body), 1).flatMap((resourceSpans) => {
    const rs = readFields(resourceSpans);
    const resource = rs.has(1) ? keyValues(all(readFields(first(rs, 1) as Buffer), 1)) : {};
    return all(rs, 2).flatMap((scopeSpans) =>
      all(readFields(scopeSpans), 2).map((bytes): ExportedSpan => {
        const s = readFields(bytes);
        const status = s.has(15) ? readFields(first(s, 15) as Buffer) : new Map();
        return {
          traceId: hex(s, 1),
          spanId: hex(s, 2),
          parentSpanId: hex(s, 4),
          name: text(s, 5),
          kind: int(s, 6),
          attributes: keyValues(all(s, 9)),
          events: all(s, 11).map((e) => {
            const f = readFields(e);
            return { name: text(f, 2), attributes: keyValues(all(f, 3)) };
          }),
          links: all(s, 13).map((l) => {
            const f = readFields(l);
            return { traceId: hex(f, 1), spanId: hex(f, 2) };
          }),
          status: int(status, 3),
          resource,
        };
      }),
    );
  });
}

interface JsonValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: JsonValue[] };
}
type JsonKeyValues = { key: string; value?: JsonValue }[] | undefined;
const jsonValue = (v: JsonValue | undefined): unknown =>
  v === undefined
    ? undefined
    : (v.stringValue ?? v.boolValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.doubleValue ?? v.arrayValue?.values?.map(jsonValue))));
const jsonAttributes = (list: JsonKeyValues) => Object.fromEntries((list ?? []).map((kv) => [kv.key, jsonValue(kv.value)]));

/** OTLP's JSON: the same messages, ids as hex strings (the OTLP/HTTP JSON encoding). */
function fromJson(body: Buffer): ExportedSpan[] {
  type JsonSpan = {
    traceId: string;
    spanId: string;
    parentSpanId?: string;
    name: string;
    kind: number;
    attributes?: JsonKeyValues;
    events?: { name: string; attributes?: JsonKeyValues }[];
    links?: { traceId: string; spanId: string }[];
    status?: { code?: number };
  };
  const request = JSON.parse(body.toString('utf8')) as {
    resourceSpans?: { resource?: { attributes?: JsonKeyValues }; scopeSpans?: { spans?: JsonSpan[] }[] }[];
  };
  return (request.resourceSpans ?? []).flatMap((rs) =>
    (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((s) => ({
        traceId: s.traceId,
        spanId: s.spanId,
        parentSpanId: s.parentSpanId ?? '',
        name: s.name,
        kind: s.kind,
        attributes: jsonAttributes(s.attributes),
        events: (s.events ?? []).map((e) => ({ name: e.name, attributes: jsonAttributes(e.attributes) })),
        links: (s.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
        status: s.status?.code ?? 0,
        resource: jsonAttributes(rs.resource?.attributes),
      })),
    ),
  );
}

/** The spans of one OTLP/HTTP export request, read by its Content-Type. */
export function exportedSpans(request: ReceivedRequest): ExportedSpan[] {
  const type = request.headers['content-type'] ?? '';
  if (type.startsWith('application/x-protobuf')) return fromProtobuf(request.body);
  if (type.startsWith('application/json')) return fromJson(request.body);
  throw new Error(`an OTLP export with Content-Type ${type}`);
}

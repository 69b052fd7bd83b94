/**
 * Options of tracing (docs/tracing.md: Settings): OpenTelemetry's own environment variables, each
 * mirrored by a `--otel*` flag, read as OpenTelemetry's exporters read them and checked at start.
 * Tracing is on when an endpoint is given.
 */
import { ConfigError, oneOf, type Parser } from './parsers.js';
import { spec } from './spec.js';
import { OTLP_PROTOCOLS, SAMPLERS, type OtlpProtocol, type SamplerName } from '../tracing/settings.js';

/** An http:// or https:// URL. */
const otlpUrl: Parser<string> = (raw) => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`must be an http:// or https:// URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`must be an http:// or https:// URL, got "${raw}"`);
  return raw;
};

/** The protocol: OTLP over HTTP, as protobuf or JSON (gRPC is not offered, and is refused by name). */
const otlpProtocol: Parser<OtlpProtocol> = (raw) => {
  if ((OTLP_PROTOCOLS as readonly string[]).includes(raw)) return raw as OtlpProtocol;
  const grpc = raw === 'grpc' ? " (gRPC is not supported: send to the collector's OTLP/HTTP port, 4318)" : '';
  throw new ConfigError(`must be one of ${OTLP_PROTOCOLS.join(', ')}, got "${raw}"${grpc}`);
};

/**
 * `OTEL_EXPORTER_OTLP_HEADERS`: `key=value` pairs separated by commas, values percent-encoded
 * (OpenTelemetry's specification: the W3C Baggage format without its properties).
 */
const otlpHeaders: Parser<Record<string, string>> = (raw) => {
  const headers: Record<string, string> = {};
  for (const pair of raw.split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    const name = pair.slice(0, Math.max(at, 0)).trim();
    if (at <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new ConfigError(`must be name=value pairs separated by commas, got "${pair.trim()}"`);
    let value: string;
    try {
      value = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      throw new ConfigError(`has a value that is not percent-encoded text, in "${name}"`);
    }
    if (/[\r\n\0]/.test(value)) throw new ConfigError(`has a value with a line break, in "${name}"`);
    headers[name.toLowerCase()] = value;
  }
  return headers;
};

/** The ratio of a `*traceidratio` sampler: a number from 0 to 1. */
const samplerRatio: Parser<number> = (raw) => {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new ConfigError(`must be a number from 0 to 1, got "${raw}"`);
  return n;
};

/** A service name: some text, on one line. */
const serviceName: Parser<string> = (raw) => {
  if (raw.trim() === '' || /[\r\n\0]/.test(raw)) throw new ConfigError(`must be a name on one line, got "${raw}"`);
  return raw;
};

export const TRACING_OPTIONS = [
  spec({
    key: 'otel',
    flag: '--otel <url>',
    env: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    default: undefined as string | undefined,
    parse: otlpUrl,
    defaultText: 'none (tracing off)',
    doc: 'Trace every request, change and webhook attempt to this OTLP/HTTP endpoint, spans going to its `/v1/traces` (`http://localhost:4318`; docs/tracing.md: Tracing)',
  }),
  spec({
    key: 'otelTracesEndpoint',
    flag: '--otel-traces-endpoint <url>',
    env: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    default: undefined as string | undefined,
    parse: otlpUrl,
    defaultText: 'none',
    doc: "The traces endpoint itself, used as given, in place of `--otel`'s (tracing is on with either)",
  }),
  spec({
    key: 'otelProtocol',
    flag: '--otel-protocol <protocol>',
    env: 'OTEL_EXPORTER_OTLP_PROTOCOL',
    default: 'http/protobuf' as OtlpProtocol,
    parse: otlpProtocol,
    doc: 'How spans are sent: `http/protobuf` or `http/json`',
  }),
  spec({
    key: 'otelServiceName',
    flag: '--otel-service-name <name>',
    env: 'OTEL_SERVICE_NAME',
    default: 'card-sandbox',
    parse: serviceName,
    doc: 'The service the spans are from (`service.name`)',
  }),
  spec({
    key: 'otelHeaders',
    flag: '--otel-headers <headers>',
    env: 'OTEL_EXPORTER_OTLP_HEADERS',
    default: {} as Record<string, string>,
    parse: otlpHeaders,
    defaultText: 'none',
    doc: 'Headers sent with the spans, `name=value` pairs separated by commas, values percent-encoded (`authorization=Bearer%20abc`)',
  }),
  spec({
    key: 'otelSampler',
    flag: '--otel-sampler <sampler>',
    env: 'OTEL_TRACES_SAMPLER',
    default: 'parentbased_always_on' as SamplerName,
    parse: oneOf(SAMPLERS),
    doc: `Which traces are recorded: ${SAMPLERS.map((s) => `\`${s}\``).join(', ')}`,
  }),
  spec({
    key: 'otelSamplerArg',
    flag: '--otel-sampler-arg <ratio>',
    env: 'OTEL_TRACES_SAMPLER_ARG',
    default: undefined as number | undefined,
    parse: samplerRatio,
    defaultText: '`1`',
    doc: 'The ratio of traces the `traceidratio` samplers record, from 0 to 1',
  }),
] as const;

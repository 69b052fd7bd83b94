/**
 * Tracing's settings (docs/tracing.md: Settings), read from OpenTelemetry's own environment
 * variables or the `--otel*` flags that mirror them, each checked before it is used: where to send
 * traces, how, under which service name, with which headers and sampler. Tracing is on when an
 * endpoint is given, and only then are the OpenTelemetry packages loaded (tracing/otel.ts).
 */
import { ConfigError, type Parser } from '../config/parsers.js';

export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** OpenTelemetry's samplers by their `OTEL_TRACES_SAMPLER` names; the ratio ones take `OTEL_TRACES_SAMPLER_ARG`. */
export const SAMPLERS = ['parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio', 'always_on', 'always_off', 'traceidratio'] as const;
export type SamplerName = (typeof SAMPLERS)[number];

export interface TracingSettings {
  /** Where spans are sent: the traces endpoint itself. */
  url: string;
  protocol: OtlpProtocol;
  serviceName: string;
  headers: Record<string, string>;
  sampler: SamplerName;
  /** The ratio of the `*traceidratio` samplers. */
  ratio: number;
}

/** What the options hold, as config/options.ts reads them. */
export interface TracingOptions {
  otel: string | undefined;
  otelTracesEndpoint: string | undefined;
  otelProtocol: OtlpProtocol;
  otelServiceName: string;
  otelHeaders: Record<string, string>;
  otelSampler: SamplerName;
  otelSamplerArg: number | undefined;
}

/** An http:// or https:// URL. */
export const otlpUrl: Parser<string> = (raw) => {
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
export const otlpProtocol: Parser<OtlpProtocol> = (raw) => {
  if ((OTLP_PROTOCOLS as readonly string[]).includes(raw)) return raw as OtlpProtocol;
  const grpc = raw === 'grpc' ? ' (gRPC is not supported: send to the collector\'s OTLP/HTTP port, 4318)' : '';
  throw new ConfigError(`must be one of ${OTLP_PROTOCOLS.join(', ')}, got "${raw}"${grpc}`);
};

/**
 * `OTEL_EXPORTER_OTLP_HEADERS`: `key=value` pairs separated by commas, values percent-encoded
 * (OpenTelemetry's specification: the W3C Baggage format without its properties).
 */
export const otlpHeaders: Parser<Record<string, string>> = (raw) => {
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
export const samplerRatio: Parser<number> = (raw) => {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new ConfigError(`must be a number from 0 to 1, got "${raw}"`);
  return n;
};

/**
 * The settings, or undefined when tracing is off (no endpoint). The traces endpoint is used as
 * given; the general one gets `v1/traces` appended to its path, as OpenTelemetry's exporters do.
 */
export function tracingSettings(options: TracingOptions): TracingSettings | undefined {
  const url = options.otelTracesEndpoint ?? (options.otel === undefined ? undefined : `${options.otel.replace(/\/+$/, '')}/v1/traces`);
  if (url === undefined) return undefined;
  return {
    url,
    protocol: options.otelProtocol,
    serviceName: options.otelServiceName,
    headers: options.otelHeaders,
    sampler: options.otelSampler,
    ratio: options.otelSamplerArg ?? 1,
  };
}

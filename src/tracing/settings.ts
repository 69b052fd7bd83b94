/**
 * Tracing's settings (docs/tracing.md: Settings), made from the options that OpenTelemetry's own
 * environment variables or the `--otel*` flags set (config/tracing.ts): where to send traces, how,
 * under which service name, with which headers and sampler. Tracing is on when an endpoint is
 * given, and only then are the OpenTelemetry packages loaded (tracing/otel.ts).
 */
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

/** Tracing's options (docs/tracing.md: Settings): OpenTelemetry's variables read as its exporters read them, bad values refused at start. */
import { describe, expect, it } from 'vitest';
import { ConfigError, resolveConfig } from './index.js';
import { tracingSettings } from '../tracing/settings.js';

describe('tracing options', () => {
  it('are off by default', () => {
    expect(tracingSettings(resolveConfig({}, {}))).toBeUndefined();
    expect(tracingSettings(resolveConfig({}, { OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }))).toBeUndefined();
  });

  it('send to /v1/traces below the endpoint, or to the traces endpoint as given, with OpenTelemetry’s defaults', () => {
    expect(tracingSettings(resolveConfig({}, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }))).toEqual({
      url: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      serviceName: 'card-sandbox',
      headers: {},
      sampler: 'parentbased_always_on',
      ratio: 1,
    });
    expect(tracingSettings(resolveConfig({}, { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otlp.example.test/prefix' }))?.url).toBe(
      'https://otlp.example.test/prefix/v1/traces',
    );
    const both = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/traces' };
    expect(tracingSettings(resolveConfig({}, both))?.url).toBe('http://b:4318/traces');
    expect(tracingSettings(resolveConfig({ otel: 'http://flag:4318' }, both))?.url).toBe('http://b:4318/traces');
    expect(tracingSettings(resolveConfig({ otel: 'http://flag:4318' }, {}))?.url).toBe('http://flag:4318/v1/traces');
  });

  it('read the headers, the protocol, the service name and the sampler', () => {
    const config = resolveConfig(
      { otel: 'http://localhost:4318' },
      {
        OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer%20abc, x-scope-orgid=tenant-1,',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'payments-sandbox',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
      },
    );
    expect(tracingSettings(config)).toMatchObject({
      headers: { authorization: 'Bearer abc', 'x-scope-orgid': 'tenant-1' },
      protocol: 'http/json',
      serviceName: 'payments-sandbox',
      sampler: 'parentbased_traceidratio',
      ratio: 0.25,
    });
  });

  it.each([
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL, got "localhost:4318"'],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'ftp://collector/v1/traces' }, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http:// or https:// URL'],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'OTEL_EXPORTER_OTLP_PROTOCOL must be one of http/protobuf, http/json, got "grpc" (gRPC is not supported'],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'http' }, 'OTEL_EXPORTER_OTLP_PROTOCOL must be one of http/protobuf, http/json, got "http"'],
    [{ OTEL_EXPORTER_OTLP_HEADERS: 'just-a-name' }, 'OTEL_EXPORTER_OTLP_HEADERS must be name=value pairs separated by commas, got "just-a-name"'],
    [{ OTEL_EXPORTER_OTLP_HEADERS: 'bad name=1' }, 'OTEL_EXPORTER_OTLP_HEADERS must be name=value pairs'],
    [{ OTEL_EXPORTER_OTLP_HEADERS: 'a=%E0%A4%A' }, 'OTEL_EXPORTER_OTLP_HEADERS has a value that is not percent-encoded text, in "a"'],
    [{ OTEL_EXPORTER_OTLP_HEADERS: 'a=x%0D%0Ainjected: 1' }, 'OTEL_EXPORTER_OTLP_HEADERS has a value with a line break, in "a"'],
    [{ OTEL_SERVICE_NAME: ' ' }, 'OTEL_SERVICE_NAME must be a name on one line'],
    [{ OTEL_TRACES_SAMPLER: 'sometimes' }, 'OTEL_TRACES_SAMPLER must be one of parentbased_always_on'],
    [{ OTEL_TRACES_SAMPLER_ARG: '1.5' }, 'OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got "1.5"'],
    [{ OTEL_TRACES_SAMPLER_ARG: 'half' }, 'OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1'],
  ])('refuses %j: %s', (env, message) => {
    expect(() => resolveConfig({}, env)).toThrow(ConfigError);
    expect(() => resolveConfig({}, env)).toThrow(message);
  });

  it('names the flag when the bad value came from it', () => {
    expect(() => resolveConfig({ otelProtocol: 'grpc' }, {})).toThrow('--otel-protocol must be one of');
  });
});

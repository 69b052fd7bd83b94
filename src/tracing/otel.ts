/**
 * Tracing with OpenTelemetry's JavaScript SDK (docs/tracing.md: Tracing): the only importer of the
 * `@opentelemetry/*` packages, bundled apart (dist/otel.cjs) and loaded by `card-sandbox start` only
 * when tracing is on, so that neither the CLI's start nor `import('card-sandbox')` pays for it.
 * Spans go in batches to an OTLP/HTTP endpoint, as protobuf or JSON; the context of the request
 * under way follows its asynchronous work (AsyncLocalStorage), so a change made deep in a service
 * is told to the request's span and stores that span's `traceparent`.
 */
import { context, diag, DiagLogLevel, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { parseTraceParent, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { JsonTraceSerializer, ProtobufTraceSerializer, TraceExporterMetricsHelper } from '@opentelemetry/otlp-transformer';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type ReadableSpan,
  type Sampler,
} from '@opentelemetry/sdk-trace';
import type { Log } from '../kernel/log.js';
import type { TraceAttributes, Tracing } from '../kernel/tracing.js';
import type { SamplerName, TracingSettings } from './settings.js';

function samplerOf(name: SamplerName, ratio: number): Sampler {
  const root = name.endsWith('always_off')
    ? new AlwaysOffSampler()
    : name.endsWith('traceidratio')
      ? new TraceIdRatioBasedSampler(ratio)
      : new AlwaysOnSampler();
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}

/** The attributes given a value: OpenTelemetry has no undefined one. */
function defined(attributes: TraceAttributes): Attributes {
  const kept: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) kept[key] = value;
  return kept;
}

const traceparentOf = (span: Span): string => {
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}`;
};

/** The context a stored `traceparent` names, or undefined for none (or one that does not parse). */
function storedContext(traceparent: string | undefined): Context | undefined {
  const parent = traceparent === undefined ? null : parseTraceParent(traceparent);
  return parent ? trace.setSpanContext(ROOT_CONTEXT, parent) : undefined;
}

function exporterOf(settings: TracingSettings) {
  const json = settings.protocol === 'http/json';
  const options = convertLegacyHttpOptions({ url: settings.url, headers: settings.headers }, 'TRACES', 'v1/traces', {
    'Content-Type': json ? 'application/json' : 'application/x-protobuf',
  });
  const serializer = json ? JsonTraceSerializer : ProtobufTraceSerializer;
  return new OTLPExporterBase<ReadableSpan[]>(
    createOtlpHttpExportDelegate(options, serializer, 'otlp_http_span_exporter', TraceExporterMetricsHelper, undefined),
  );
}

export function createTracing(settings: TracingSettings, log: Log, version: string): Tracing {
  // The exporter's complaints (an endpoint that does not answer) reach the sandbox's log.
  diag.setLogger(
    { error: (message) => log.warn(`tracing: ${message}`), warn: (message) => log.warn(`tracing: ${message}`), info() {}, debug() {}, verbose() {} },
    DiagLogLevel.WARN,
  );
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const provider = new TracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': version })),
    sampler: samplerOf(settings.sampler, settings.ratio),
    spanProcessors: [new BatchSpanProcessor({ exporter: exporterOf(settings) })],
  });
  const tracer = provider.getTracer('card-sandbox', version);
  const propagator = new W3CTraceContextPropagator();
  const getter = {
    keys: (carrier: Record<string, string | undefined>) => Object.keys(carrier),
    get: (carrier: Record<string, string | undefined>, key: string) => carrier[key],
  };

  return {
    request(method, path, headers, work) {
      const parent = propagator.extract(ROOT_CONTEXT, headers, getter);
      const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'url.path': path } }, parent);
      return context.with(trace.setSpan(parent, span), () =>
        work({
          end(route, status, attributes) {
            if (route !== undefined) span.updateName(`${method} ${route}`);
            span.setAttributes(defined({ ...attributes, 'http.route': route, 'http.response.status_code': status }));
            // A server span is in error when the server failed, not when the caller did (OpenTelemetry's HTTP conventions).
            if (status >= 500) span.setAttributes({ 'error.type': String(status) }).setStatus({ code: SpanStatusCode.ERROR });
            span.end();
          },
        }),
      );
    },

    current() {
      const span = trace.getSpan(context.active());
      return span ? traceparentOf(span) : undefined;
    },

    event(name, attributes) {
      trace.getSpan(context.active())?.addEvent(name, defined(attributes));
    },

    within(name, parent, attributes, work) {
      const active = trace.getSpan(context.active());
      const stored = storedContext(parent);
      const links = active && stored ? [{ context: active.spanContext() }] : [];
      const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes: defined(attributes), links }, stored ?? ROOT_CONTEXT);
      try {
        return context.with(trace.setSpan(stored ?? ROOT_CONTEXT, span), work);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
        throw error;
      } finally {
        span.end();
      }
    },

    attempt(name, parent, attributes) {
      const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes: defined(attributes) }, storedContext(parent) ?? ROOT_CONTEXT);
      return {
        traceparent: traceparentOf(span),
        end(more, error) {
          span.setAttributes(defined(more));
          if (error !== undefined)
            span
              .setAttributes({ 'error.type': more['http.response.status_code'] === undefined ? 'no_response' : String(more['http.response.status_code']) })
              .setStatus({ code: SpanStatusCode.ERROR, message: error });
          span.end();
        },
      };
    },

    async shutdown() {
      await provider.shutdown().catch((error: unknown) => log.warn(`tracing: the last spans could not be sent: ${String(error)}`));
    },
  };
}

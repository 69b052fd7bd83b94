/**
 * Tracing (docs/tracing.md: Tracing): what the sandbox tells an OpenTelemetry trace — a SERVER span
 * per request, an event per change it makes, a CLIENT span per webhook attempt, an INTERNAL span per
 * job — with the W3C `traceparent` (https://www.w3.org/TR/trace-context/) by which a change's later
 * work finds the trace that caused it. This is the interface alone: `card-sandbox start` loads the
 * implementation, and the OpenTelemetry packages with it, only when tracing is on (tracing/otel.ts);
 * off, a core has none and every call site skips it.
 */
export type TraceAttributes = Record<string, string | number | boolean | undefined>;

/** A request's span, named by its route once routing is done. */
export interface RequestSpan {
  end(route: string | undefined, status: number, attributes: TraceAttributes): void;
}

/** A webhook attempt's span: its `traceparent` goes out with the attempt. */
export interface AttemptSpan {
  traceparent: string;
  end(attributes: TraceAttributes, error?: string): void;
}

export interface Tracing {
  /** Runs `work` in a SERVER span that continues the caller's `traceparent`, or starts a trace. */
  request<T>(
    method: string,
    path: string,
    headers: { traceparent?: string | undefined; tracestate?: string | undefined },
    work: (span: RequestSpan) => Promise<T>,
  ): Promise<T>;
  /** The `traceparent` of the span active now, to be stored with what it causes; undefined outside any. */
  current(): string | undefined;
  /** An event on the span active now (what a request changed). */
  event(name: string, attributes: TraceAttributes): void;
  /** Runs `work` in an INTERNAL span of the trace `parent` names (a job's cause), linked to the span active now. */
  within<T>(name: string, parent: string | undefined, attributes: TraceAttributes, work: () => T): T;
  /** A CLIENT span in the trace `parent` names: one webhook attempt, ended by the caller. */
  attempt(name: string, parent: string | undefined, attributes: TraceAttributes): AttemptSpan;
  /** Sends the spans still waiting, then stops. */
  shutdown(): Promise<void>;
}

/**
 * One API request from the journal (docs/inspector.md: The inspector — Requests): its answer, the problem it
 * was refused with, and what request verification found. A refused signature shows the signature
 * base the sandbox computed beside the headers it received: the thing an RFC 9421 integrator needs
 * to compare, line by line, with the base their client signed.
 */
import type { JournalEntry, Verification } from '../api-types.js';
import { Badge, CodeBlock, Copy, Facts, Panel } from '../components.js';
import { faultText } from '../../src/wire/fault-text.js';
import { statusText, statusTone, when, withoutBase } from '../format.js';

function Received({ entry, verification }: { entry: JournalEntry; verification: Verification }) {
  const lines = [`${entry.method} ${entry.path}`, ...Object.entries(verification.headers).map(([name, value]) => `${name}: ${value}`)];
  return <CodeBlock label="What the sandbox received" text={lines.join('\n')} preClass="received" />;
}

function ComputedBase({ base }: { base: string | undefined }) {
  return (
    <CodeBlock
      label="Signature base the sandbox computed"
      text={base}
      preClass="signature-base"
      missing="None: without a Signature-Input that parses, the sandbox cannot tell which components were signed."
    />
  );
}

function VerificationFindings({ entry, verification }: { entry: JournalEntry; verification: Verification }) {
  const signature = verification.failures.some((f) => f.code === 'invalid_signature');
  return (
    <section class="verification" aria-label="Request verification">
      <h3>
        Request verification <Badge state={verification.outcome} tone={verification.outcome === 'refused' ? 'bad' : 'wait'} />
      </h3>
      <ul class="failures">
        {verification.failures.map((f) => (
          <li key={f.code}>
            <code>{f.code}</code> <span class="pre-wrap">{withoutBase(f.detail)}</span>
          </li>
        ))}
      </ul>
      {signature && (
        <>
          <div class="side-by-side">
            <Received entry={entry} verification={verification} />
            <ComputedBase base={verification.signatureBase} />
          </div>
          <p class="hint">
            The sandbox rebuilt this base from the request as it arrived and the components your <code>Signature-Input</code> names, then checked your{' '}
            <code>Signature</code> over it with the key registered under its <code>keyid</code>. If your client signed other bytes — another{' '}
            <code>@authority</code> (the Host header as sent), a decoded <code>@path</code>, a digest of other body bytes, a different{' '}
            <code>@signature-params</code> — the lines differ.
          </p>
        </>
      )}
      {!signature && <Received entry={entry} verification={verification} />}
    </section>
  );
}

export function RequestDetail({ entry }: { entry: JournalEntry }) {
  return (
    <Panel title={`${entry.method} ${entry.path}`} actions={<Badge state={statusText(entry.status)} tone={statusTone(entry.status)} />}>
      <Facts
        rows={[
          ['time', `${when(entry.time)} UTC`],
          ['duration', `${entry.durationMs} ms`],
          [
            'request id',
            <span class="mono">
              {entry.requestId} <Copy text={entry.requestId} />
            </span>,
          ],
          ...(entry.replayed ? [['replayed', 'yes: the stored answer to an earlier request with this Idempotency-Key'] as [string, string]] : []),
          ...(entry.fault
            ? [
                [
                  'fault',
                  `${faultText(entry.fault)}, from ${entry.fault.source === 'header' ? 'its Sandbox-Fault header' : `rule ${entry.fault.source} of the API fault lab`}`,
                ] as [string, string],
              ]
            : []),
        ]}
      />
      {/* A strict refusal's problem is the first failed check, shown below with the others. */}
      {entry.problem && !(entry.verification?.outcome === 'refused' && entry.verification.failures[0]?.code === entry.problem.code) && (
        <div class="problem" role="note">
          <strong>Answered with a problem</strong> <code>{entry.problem.code}</code>
          <div class="detail pre-wrap">{withoutBase(entry.problem.detail)}</div>
        </div>
      )}
      {entry.verification ? (
        <VerificationFindings entry={entry} verification={entry.verification} />
      ) : (
        <p class="hint">{entry.warnings.length ? `Warnings: ${entry.warnings.join(', ')}` : 'Request verification found nothing wrong (or is off).'}</p>
      )}
    </Panel>
  );
}

/**
 * `explain <requestId>`, and the MCP tool `explain_request` (docs/agents.md: Coding agents): why a
 * request was refused, from what the request journal kept of it — its answer, each failed check
 * with how to fix it, the headers the checks read and the signature base the sandbox computed, to
 * compare with the one the client signed, and the API fault put on it. `explainRequest` is pure.
 */
import { z } from 'zod';
import type { JournalEntry } from '../../client/control.generated.js';
import { outcomeOf } from '../../domain/api-fault-kinds.js';
import type { ErrorCode } from '../../domain/errors.js';
import { faultNote } from '../../wire/fault-text.js';
import { CommandFailed, type Client } from '../client.js';
import { command, printed, tool } from '../command.js';

/** How to fix what each refusal of the request pipeline says. */
const FIXES: Partial<Record<ErrorCode, string>> = {
  invalid_signature:
    'Sign "@method", "@authority", "@path" (and "content-digest" when there is a body) per RFC 9421 with the P-384 key registered with PUT /v1/auth/signing, alg "ecdsa-p384-sha384", keyid that key\'s id, created within 5 minutes. Compare the base you signed with signatureBase below: the first line that differs is the mistake.',
  invalid_content_digest:
    'Send Content-Digest: sha-512=:<base64 of the SHA-512 of the exact body bytes>: (RFC 9530), computed over the bytes you send, after serialising.',
  missing_idempotency_key: 'Send Idempotency-Key: <a new UUID> on every POST, PUT, PATCH and DELETE, and the same key when you retry that request.',
  invalid_idempotency_key: 'The Idempotency-Key must be a UUID.',
  idempotency_key_reused: 'An Idempotency-Key is for one request: a retry sends the same method, path and body; a new request needs a new key.',
  idempotency_in_flight: 'A request with this Idempotency-Key is still running: retry when it has answered.',
  not_authorised:
    'Send Authorization: Bearer <token> from POST /v1/auth/token; get a new token when it expires (an hour of sandbox time) or after credentials change.',
  invalid_credentials: 'Use an API key and secret of the programme (the defaults are printed by card-sandbox start).',
  invalid_request: "The body or parameters do not match the operation's schema in /openapi.json: see errors for each field.",
  payload_too_large: 'Bodies are at most 1 MiB.',
  route_not_found: 'No operation has this method and path: see /openapi.json.',
  host_not_allowed: 'Call the sandbox by localhost or 127.0.0.1, or start it with --allowed-hosts naming this host.',
  cross_site_request: 'Call the control plane from a server or script, not from a page on another origin.',
};

export interface Explanation {
  requestId: string;
  request: string;
  status: number;
  /** What went wrong, in one line. */
  summary: string;
  problem?: { code: string; detail: string; fix?: string };
  failures: { code: string; detail: string; fix?: string }[];
  headers?: Record<string, string>;
  signatureBase?: string;
  fault?: JournalEntry['fault'];
}

const withFix = ({ code, detail }: { code: ErrorCode; detail: string }) => ({ code, detail, ...(FIXES[code] && { fix: FIXES[code] }) });

export function explainRequest(journal: readonly JournalEntry[], requestId: string): Explanation {
  const entry = journal.find((e) => e.requestId === requestId);
  if (!entry)
    throw new CommandFailed(
      `request ${requestId} is not in the journal: it keeps the newest API requests (--journal-size), and a reset clears it; list them with \`card-sandbox requests\` (the requests tool)`,
    );
  const failures = (entry.verification?.failures ?? []).map(withFix);
  const { fault } = entry;
  const source = fault && (fault.source === 'header' ? 'the Sandbox-Fault header' : `rule ${fault.source}`);
  const outcome = entry.problem
    ? `refused with ${entry.status} ${entry.problem.code}: ${entry.problem.detail}`
    : failures.length
      ? `answered ${entry.status}, with warnings the strict mode would refuse: ${failures.map((f) => f.code).join(', ')}`
      : `answered ${entry.status}: nothing was wrong with it`;
  // effect "after" (docs/api-faults.md: The API fault lab): the write ran, then its answer was replaced.
  const committed =
    fault?.effect === 'after' && entry.method !== 'GET'
      ? '; the write was committed before the fault answered: a retry with the same Idempotency-Key is answered as the write was, another key writes it twice'
      : '';
  const summary =
    fault && outcomeOf(fault)
      ? `answered by the API fault lab (${source}), not by a mistake of the client${committed}${failures.length ? `; its checks also found ${failures.map((f) => f.code).join(', ')}` : ''}`
      : fault
        ? `${outcome} (the API fault lab only delayed it: latency ${fault.latency}, ${source})`
        : outcome;
  return {
    requestId,
    request: `${entry.method} ${entry.path}`,
    status: entry.status,
    summary,
    ...(entry.problem && { problem: withFix(entry.problem) }),
    failures,
    ...(entry.verification?.headers && { headers: entry.verification.headers }),
    ...(entry.verification?.signatureBase !== undefined && { signatureBase: entry.verification.signatureBase }),
    ...(fault && { fault }),
  };
}

export const explain = printed(
  async (client: Client, requestId: string) => explainRequest(await client.listRequests(), requestId),
  ({ io }, x) => {
    const c = io.color;
    io.out(`${c.bold(x.request)} ${io.status(x.status === 0 ? 'no answer' : String(x.status))} ${c.dim(`request ${x.requestId}`)}`);
    io.out(x.summary);
    const fix = (text: string | undefined) => text && io.out(`    ${c.dim(`fix: ${text}`)}`);
    if (x.problem && !x.failures.some((f) => f.code === x.problem!.code)) fix(x.problem.fix);
    if (x.failures.length) io.out(`\n${c.bold('checks that failed')}`);
    for (const f of x.failures) {
      io.out(`  ${c.red(f.code)} ${f.detail}`);
      fix(f.fix);
    }
    if (x.headers) {
      io.out(`\n${c.bold('headers the checks read')}`);
      for (const [name, value] of Object.entries(x.headers)) io.out(`  ${name}: ${value}`);
    }
    if (x.signatureBase !== undefined) io.out(`\n${c.bold('signature base the sandbox computed')}\n${x.signatureBase.replace(/^/gm, '  ')}`);
    if (x.fault) io.out(`\n${c.magenta(faultNote(x.fault))}`);
  },
);

export const explainCommand = command({
  name: 'explain',
  args: '<requestId>',
  description: 'Why the sandbox refused (or warned about) a request: each failed check with how to fix it, the headers read, the signature base computed',
  examples: ['explain <requestId>', 'explain <requestId> --json', 'requests --refused --limit 5'],
  run: (_flags, requestId) => (ctx) => explain(ctx, requestId),
  tool: tool({
    name: 'explain_request',
    description:
      'Why the sandbox refused (or warned about) a request: the problem, each failed check with how to fix it, the headers it read and the signature base it computed.',
    input: { requestId: z.string().describe('the Request-Id header of the answer, or requestId of the problem') },
    data: (client, { requestId }) => explain.data(client, requestId),
  }),
});

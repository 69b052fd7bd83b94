/**
 * One side's part of a parity run: the values its steps kept (its own ids, challenges, chain), the
 * label of each id it made (`card-2`), the Idempotency-Key each write sent, and the resources it
 * made, for the clean-up. A step whose path or body needs a value this side does not have is not run
 * here, and its answer says which.
 */
import { createWallet } from '../companion/wallet.js';
import type { Received, Side } from './side.js';
import { Missing, operationOf, type OperationId, type ResourceKind, type Step, type StepContext } from './step.js';

/** What is the same on both sides of a run. */
export interface RunValues {
  /** Eight hex digits naming the run in external ids and callback URLs. */
  run: string;
  /** A UUID no resource has. */
  unknownId: string;
  /** The wallets' private keys, 0x-hex. */
  walletKeys: readonly string[];
}

export interface SideRun {
  readonly side: Side;
  readonly values: Map<string, string>;
  /** The label of each id this side's steps kept, by the id in lower case. */
  labelOf(id: string): string | undefined;
  keep(label: string, value: string): void;
  /** The resources made on this side, oldest first. */
  readonly created: { label: string; kind: ResourceKind }[];
  /** A GET of `operationId` with its parameters taken from the kept values. */
  read(operationId: OperationId, params: Record<string, string>): Promise<Received>;
  /** Sends the step's request; keeps what its answer gives to keep. */
  execute(step: Step): Promise<Received>;
}

export function createSideRun(side: Side, values: RunValues): SideRun {
  const kept = new Map<string, string>([['unknown', values.unknownId]]);
  const labels = new Map<string, string>();
  const created: { label: string; kind: ResourceKind }[] = [];

  const value = (label: string) => {
    const found = kept.get(label);
    if (found === undefined) throw new Missing(label);
    return found;
  };
  const context: StepContext = {
    value,
    run: values.run,
    unknownId: values.unknownId,
    credentials: { apiKey: side.apiKey, apiSecret: side.apiSecret },
    wallet: (n) => createWallet({ chain: value('chain'), privateKey: values.walletKeys[n - 1]! }),
  };
  const pathOf = (operationId: OperationId, params: Record<string, string>) =>
    Object.entries(params).reduce<string>((path, [name, label]) => path.replace(`{${name}}`, encodeURIComponent(value(label))), operationOf(operationId).path);
  const keep = (label: string, found: string) => {
    kept.set(label, found);
    if (!labels.has(found.toLowerCase())) labels.set(found.toLowerCase(), label);
  };

  return {
    side,
    values: kept,
    labelOf: (id) => (id.toLowerCase() === values.unknownId ? undefined : labels.get(id.toLowerCase())),
    keep,
    created,
    read: (operationId, params) => side.send({ method: 'GET', path: pathOf(operationId, params) }),
    async execute(step) {
      const op = operationOf(step.operationId);
      let answer: Received;
      try {
        const request = {
          method: op.method,
          path: pathOf(step.operationId, step.params ?? {}),
          ...(step.query && { query: step.query(context) }),
          ...(step.body && { body: step.body(context) }),
          ...(step.idempotencyKeyOf !== undefined && { idempotencyKey: value(`key of ${step.idempotencyKeyOf}`) }),
          ...(step.anonymous && { anonymous: true }),
        };
        answer = await side.send(request);
      } catch (error) {
        if (error instanceof Missing) return { none: `not run: ${error.message}`, ms: 0 };
        throw error;
      }
      if (answer.idempotencyKey !== undefined) kept.set(`key of ${step.id}`, answer.idempotencyKey);
      if (answer.status !== undefined && answer.status < 300) {
        for (const [label, field] of Object.entries(step.keep ?? {})) {
          const found = typeof field === 'function' ? field(answer.body) : (answer.body as Record<string, unknown> | undefined)?.[field];
          if (typeof found === 'string') keep(label, found);
        }
        if (step.creates && kept.has(step.creates.label)) created.push(step.creates);
      }
      return answer;
    },
  };
}

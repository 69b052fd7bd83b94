/**
 * The companion's fault labs (docs/companion.md: Helpers for your tests): the API fault lab's rules
 * and the delivery lab's webhook faults of the programme, over the control plane, as the CLI sets them.
 */
import type { ControlClient } from '../client/control.js';
import type { ApiFaultsView, FaultsAnswer, Operations } from '../client/control.generated.js';
import type { ApiFaultRuleInput, ApiFaultsInput } from '../domain/api-faults.js';
import { faultsSpecBody } from '../domain/webhook-faults.js';

/** The delivery lab's faults (docs/webhooks.md: The delivery lab), as the control plane takes them. */
export type WebhookFaultsInput = Operations['setWebhookFaults']['args'][0];

/** Faults a programme starts with: `createSandbox({ faults })`. */
export interface StartingFaults {
  api?: ApiFaultsInput | ApiFaultRuleInput[];
  /** An object, or as `card-sandbox webhooks faults set` writes them: `forge=0.3,duplicate=0.2`. */
  webhooks?: WebhookFaultsInput | string;
}

export interface SandboxFaults {
  /** The API fault lab (docs/api-faults.md: The API fault lab): rules for the programme's /v1 requests. */
  api: {
    set(rules: ApiFaultsInput | ApiFaultRuleInput[]): Promise<ApiFaultsView>;
    get(): Promise<ApiFaultsView>;
    clear(): Promise<void>;
  };
  /**
   * The delivery lab (docs/webhooks.md: The delivery lab): faults of the programme's webhook
   * deliveries, as an object or as `card-sandbox webhooks faults set` writes them (`forge=0.3,duplicate=0.2`).
   */
  webhooks: {
    set(faults: WebhookFaultsInput | string): Promise<FaultsAnswer>;
    get(): Promise<FaultsAnswer>;
    clear(): Promise<void>;
  };
}

/** Faults as the CLI writes them, as the control plane takes them; a bad one is refused here, by name. */
function webhookFaultsOf(spec: string): WebhookFaultsInput {
  const { body, errors } = faultsSpecBody(spec);
  if (errors.length) throw new TypeError(`webhook faults: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`);
  return body as WebhookFaultsInput;
}

export function faultsOf(control: ControlClient): SandboxFaults {
  return {
    api: {
      // The document states a fault's rules as a union the input type does not spell out; the control plane checks them.
      set: (rules) => control.setApiFaults((Array.isArray(rules) ? { rules } : rules) as Parameters<ControlClient['setApiFaults']>[0]),
      get: () => control.getApiFaults(),
      clear: async () => {
        await control.clearApiFaults();
      },
    },
    webhooks: {
      set: (input) => control.setWebhookFaults(typeof input === 'string' ? webhookFaultsOf(input) : input),
      get: () => control.getWebhookFaults(),
      clear: async () => {
        await control.clearWebhookFaults();
      },
    },
  };
}

/** Sets the faults a programme starts with. */
export async function setStartingFaults(faults: SandboxFaults, starting: StartingFaults = {}): Promise<void> {
  if (starting.api !== undefined) await faults.api.set(starting.api);
  if (starting.webhooks !== undefined) await faults.webhooks.set(starting.webhooks);
}

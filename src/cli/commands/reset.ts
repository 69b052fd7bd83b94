/** `reset`: wipe the running sandbox's world (credentials and keys stay). */
import type { Client } from '../client.js';
import { command, printed } from '../command.js';

export const reset = printed(
  (client: Client) => client.reset(),
  ({ io, programme }, result) => {
    const wiped = Object.entries(result.wiped).filter(([, n]) => n > 0);
    io.out(
      `${io.color.green('✓')} ${programme === undefined ? 'sandbox' : `programme ${programme}`} reset${wiped.length ? `, wiped ${wiped.map(([name, n]) => `${name}: ${n}`).join(', ')}` : ' (it was already empty)'}`,
    );
  },
);

export const resetCommand = command({
  name: 'reset',
  description: 'Wipe every customer, account, card, authorisation, transaction, webhook, event and job (credentials and keys stay)',
  examples: ['reset'],
  run: () => reset,
  tool: { description: "Wipe the programme's world (credentials, keys and clock stay).", input: {}, data: (client) => reset.data(client) },
});

/**
 * The admin token (docs/inspector.md: The inspector): a sandbox started with --admin-token refuses the page's
 * calls until it is given; the page keeps it for this tab only and sends it as a bearer token.
 */
import { useState } from 'preact/hooks';
import { adminToken, setAdminToken } from '../api.js';
import { Panel } from '../components.js';

export function TokenGate() {
  const [token, setToken] = useState('');
  const refused = adminToken.value !== undefined;
  return (
    <div class="gate">
      <Panel title="Admin token">
        <form
          class="form"
          onSubmit={(e) => {
            e.preventDefault();
            setAdminToken(token.trim());
          }}
        >
          <p>
            This sandbox was started with <code>--admin-token</code>: enter it to see its world. It is kept in this tab only, and sent as{' '}
            <code>Authorization: Bearer …</code> to <code>/_sandbox</code>.
          </p>
          {refused && (
            <p class="bad-text" role="alert">
              That token was refused.
            </p>
          )}
          <label class="field">
            <span>Token</span>
            <input type="password" autocomplete="current-password" value={token} onInput={(e) => setToken(e.currentTarget.value)} autoFocus />
          </label>
          <div class="row">
            <button type="submit" class="primary" disabled={!token.trim()}>
              Continue
            </button>
          </div>
        </form>
      </Panel>
    </div>
  );
}

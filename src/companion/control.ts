/**
 * The control plane as the test companion reaches it (README: Helpers for your tests): plain HTTP
 * to /_sandbox/*, naming the programme in `Sandbox-Programme` and carrying the admin token when
 * the sandbox has one — nothing a user could not send, so it works against a container too.
 */
import { ApiError, problemOf } from '../client/create-client.js';

export interface ControlPlane {
  /** Sends a request to `/_sandbox${path}` (a JSON body, or bytes sent as they are); resolves with the parsed answer, throws ApiError on a refusal. */
  <T = unknown>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T>;
  /** The raw answer, for streams and files. */
  open(path: string, signal?: AbortSignal): Promise<Response>;
}

export function controlPlane(url: string, programme: string | undefined, adminToken: string | undefined): ControlPlane {
  const headers = (body: boolean): Record<string, string> => ({
    ...(programme !== undefined && { 'Sandbox-Programme': programme }),
    ...(adminToken !== undefined && { Authorization: `Bearer ${adminToken}` }),
    ...(body && { 'Content-Type': 'application/json' }),
  });
  const refused = async (method: string, path: string, res: Response): Promise<ApiError> => {
    const text = await res.text();
    return new ApiError('control plane', method, `/_sandbox${path}`, res.status, problemOf(text), text);
  };
  const control = (async (method: string, path: string, body?: unknown, signal?: AbortSignal) => {
    const res = await fetch(`${url}/_sandbox${path}`, { method, headers: headers(body !== undefined), body: body === undefined || body instanceof Uint8Array ? body : JSON.stringify(body), signal });
    if (!res.ok) throw await refused(method, path, res);
    const text = await res.text();
    return text === '' ? undefined : JSON.parse(text);
  }) as ControlPlane;
  control.open = async (path, signal) => {
    const res = await fetch(`${url}/_sandbox${path}`, { headers: headers(false), signal });
    if (!res.ok) throw await refused('GET', path, res);
    return res;
  };
  return control;
}

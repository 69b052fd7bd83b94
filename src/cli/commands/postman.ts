/**
 * `postman --out <dir>` (docs/postman.md): a Postman collection and environment for the running
 * sandbox. It reads the sandbox's own OpenAPI documents, takes a token with the programme's
 * credentials, makes a P-384 key and registers it (PUT /v1/auth/signing) as an integrator does, and
 * writes both files (each written whole or not at all): the base URL, the credentials and the
 * private key in the environment, the secrets marked secret.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../../config/spec.js';
import { createClient as createApiClient } from '../../client/create-client.js';
import { reasonOf, UnreachableError } from '../../client/control.js';
import { ApiError } from '../../client/operations.js';
import { unwritableProblem, writeFileAtomicSync } from '../../kernel/files.js';
import { pkcs8Pem, spkiPem } from '../../signatures/keys.js';
import { CONTROLS_FOLDER, JOURNEY_FOLDER, postmanCollection, postmanEnvironment } from '../../postman/collection.js';
import type { OpenApiDocument } from '../../postman/openapi.js';
import { CommandFailed, resolveClientOptions, type CommandContext } from '../client.js';
import { command, UsageError } from '../command.js';

export const COLLECTION_FILE = 'card-sandbox.postman_collection.json';
export const ENVIRONMENT_FILE = 'card-sandbox.postman_environment.json';

export interface PostmanOptions {
  out: string;
  apiKey: string;
  apiSecret: string;
  adminToken?: string | undefined;
}

export interface PostmanResult {
  collection: string;
  environment: string;
  baseUrl: string;
  programme: string;
  apiKey: string;
  signingKeyId: string;
  folders: { name: string; requests: number }[];
  requests: number;
}

async function documentAt(baseUrl: string, path: string, adminToken: string | undefined): Promise<OpenApiDocument> {
  const url = `${baseUrl}${path}`;
  let res: Response;
  try {
    res = await fetch(url, { headers: adminToken ? { Authorization: `Bearer ${adminToken}` } : {} });
  } catch (error) {
    throw new UnreachableError(baseUrl, reasonOf(error));
  }
  const text = await res.text();
  if (!res.ok) throw new CommandFailed(`GET ${url} answered ${res.status}: ${text.slice(0, 200)}`);
  try {
    return JSON.parse(text) as OpenApiDocument;
  } catch {
    throw new CommandFailed(`GET ${url} did not answer an OpenAPI document: is this a card-sandbox URL?`);
  }
}

const count = (items: { item?: unknown[] }[]): number => items.reduce((n, item) => n + (item.item ? count(item.item as { item?: unknown[] }[]) : 1), 0);

/** The two files in `out`, made if missing; a UsageError (exit 2) when they cannot be written there, before anything is registered. */
function filesIn(out: string): { collection: string; environment: string } {
  const dir = resolve(out);
  const files = { collection: join(dir, COLLECTION_FILE), environment: join(dir, ENVIRONMENT_FILE) };
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new UsageError(`--out ${out}: cannot make the folder (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const problem = unwritableProblem(files.collection) ?? unwritableProblem(files.environment);
  if (problem !== undefined) throw new UsageError(`--out ${out}: ${problem}`);
  return files;
}

export async function writePostman({ client }: Pick<CommandContext, 'client'>, options: PostmanOptions): Promise<PostmanResult> {
  const files = filesIn(options.out);
  const baseUrl = client.url;
  const [api, control] = await Promise.all([
    documentAt(baseUrl, '/openapi.json', undefined),
    documentAt(baseUrl, '/_sandbox/openapi.json', options.adminToken),
  ]);
  // The programme the credentials belong to: the control folder acts on it too.
  const programme = (await client.listProgrammes()).find((p) => p.apiKeys.includes(options.apiKey));
  if (programme === undefined)
    throw new CommandFailed(`no programme of the sandbox at ${baseUrl} has the API key ${options.apiKey}: give --api-key and --api-secret`);

  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
  const signingKeyId = randomUUID();
  const apiClient = createApiClient({ baseUrl, apiKey: options.apiKey, apiSecret: options.apiSecret, signingKey: { keyId: signingKeyId, privateKey } });
  try {
    await apiClient.updateSigningKey({ signingKeyId, signingKey: Buffer.from(spkiPem(publicKey)).toString('base64') });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'invalid_credentials')
      throw new CommandFailed(
        `the sandbox refused the API key and secret (${error.problem?.detail ?? error.message}): give those of the programme with --api-key and --api-secret`,
      );
    throw error;
  }

  const collection = postmanCollection({ api, control });
  const environment = postmanEnvironment({
    baseUrl,
    apiKey: options.apiKey,
    apiSecret: options.apiSecret,
    signingKeyId,
    signingPrivateKey: pkcs8Pem(privateKey),
    programme: programme.id,
    adminToken: options.adminToken ?? '',
  });
  writeFileAtomicSync(files.collection, `${JSON.stringify(collection, null, 2)}\n`);
  writeFileAtomicSync(files.environment, `${JSON.stringify(environment, null, 2)}\n`);
  const folders = collection.item.map((f) => ({ name: f.name, requests: count(f.item ?? []) }));
  return { ...files, baseUrl, programme: programme.id, apiKey: options.apiKey, signingKeyId, folders, requests: count(collection.item) };
}

interface PostmanFlags {
  out: string;
  apiKey?: string;
  apiSecret?: string;
}

export const postmanCommand = command<PostmanFlags>({
  name: 'postman',
  description: 'Write a Postman collection and environment for the running sandbox: every operation, a journey, requests signed offline',
  examples: ['postman --out postman', 'postman --out postman --api-key <uuid> --api-secret <secret> --json', 'postman --out ci --url http://127.0.0.1:5000'],
  helpAfter: `\n\nImport both files into Postman, or run them: npx newman run <dir>/${COLLECTION_FILE} -e <dir>/${ENVIRONMENT_FILE} --folder ${JOURNEY_FOLDER}\nThe "${CONTROLS_FOLDER}" folder talks to the control plane, which the hosted service does not have.`,
  programme: false,
  options: [
    { flags: '--out <dir>', description: 'the directory to write the two files to (made if missing)', required: true },
    { flags: '--api-key <uuid>', description: `the programme's API key (env CARD_SANDBOX_API_KEY)`, defaultText: DEFAULT_API_KEY },
    { flags: '--api-secret <secret>', description: 'its secret (env CARD_SANDBOX_API_SECRET)', defaultText: DEFAULT_API_SECRET },
  ],
  action: (local, flags) =>
    local.run(flags, async (ctx) => {
      const { adminToken } = resolveClientOptions(flags, local.env);
      const options = {
        out: flags.out,
        apiKey: flags.apiKey ?? (local.env.CARD_SANDBOX_API_KEY || DEFAULT_API_KEY),
        apiSecret: flags.apiSecret ?? (local.env.CARD_SANDBOX_API_SECRET || DEFAULT_API_SECRET),
        adminToken,
      };
      const result = await writePostman(ctx, options);
      if (ctx.json) return ctx.io.json(result);
      const c = ctx.io.color;
      ctx.io.out(`${c.green('✓')} wrote a Postman collection of ${result.requests} requests and its environment for ${result.baseUrl}`);
      ctx.io.out(`  ${c.dim('collection ')} ${result.collection}`);
      ctx.io.out(`  ${c.dim('environment')} ${result.environment} ${c.dim(`(API key ${result.apiKey}, signing key ${result.signingKeyId})`)}`);
      ctx.io.out(`  ${c.dim('run it     ')} npx newman run ${result.collection} -e ${result.environment} --folder ${JOURNEY_FOLDER}`);
    }),
});

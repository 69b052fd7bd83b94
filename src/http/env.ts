/** The Hono environment: what middleware hands to routes for one request. */
import type { OpenAPIHono } from '@hono/zod-openapi';

export interface AppEnv {
  Variables: {
    requestId: string;
    /** The API key of the bearer token (set by the auth middleware on /v1). */
    apiKey: string;
    /** Raw request body bytes (empty when there is none). */
    rawBody: Uint8Array;
    /** Verification failures reported in warn mode. */
    warnings: string[];
    replayed: boolean;
  };
}

export type Api = OpenAPIHono<AppEnv>;

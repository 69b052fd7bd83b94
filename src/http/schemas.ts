/**
 * Request schemas shared by the routes, and the helpers that declare a route with its standard
 * problem responses so `/openapi.json` documents them.
 */
import { z } from '@hono/zod-openapi';

/** Any well-formed UUID (version-agnostic, like the real service's uuid format). */
export const Uuid = z.string().regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'must be a UUID');

/** A path id: a UUID, compared in lower case as ids are stored. */
export const idParam = <K extends string>(name: K) =>
  z.object({ [name]: Uuid.toLowerCase().openapi({ param: { name, in: 'path' } }) } as { [P in K]: typeof Uuid });

const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    requestId: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .openapi('Problem');

export const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: Problem } } });

export const jsonBody = <T extends z.ZodType>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });

export const jsonResponse = <T extends z.ZodType>(schema: T, description = 'Successful operation') => ({
  description,
  content: { 'application/json': { schema } },
});

/** The problems every authenticated /v1 operation may answer. */
export const standardProblems = {
  400: problem('Invalid request'),
  401: problem('Not authorised'),
  500: problem('Internal error'),
} as const;

/**
 * The helpers that declare a route — its path id, JSON body and answers, with the standard problem
 * responses — so that `/openapi.json` documents it. The shapes themselves are in wire/ and domain/.
 */
import { z } from '@hono/zod-openapi';
import { Uuid } from '../domain/formats.js';
import { Problem } from '../wire/problem.js';

/** A path id: a UUID, compared in lower case as ids are stored. */
export const idParam = <K extends string>(name: K) =>
  z.object({ [name]: Uuid.toLowerCase().openapi({ param: { name, in: 'path' } }) } as { [P in K]: typeof Uuid });

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

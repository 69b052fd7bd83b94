/**
 * The formats of values on the wire (docs/api.md: API behaviour): UUIDs, RFC 3339 timestamps with
 * milliseconds, and decimals as JSON strings.
 */
import { z } from 'zod';

/** Any well-formed UUID (version-agnostic, like the real service's uuid format), as a pattern to build on. */
export const UUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** A whole text that is a UUID: what `Uuid` accepts. */
export const UUID = new RegExp(`^${UUID_PATTERN}$`);

export const Uuid = z.string().regex(UUID, 'must be a UUID').meta({ format: 'uuid' });

/**
 * The sandbox's own bound on a text field whose length the service's document leaves open
 * (docs/api.md: Errors → Where the sandbox differs from the service's document): far above any
 * real value, so that no request the service takes meets it, yet a body of one huge field is
 * refused by name rather than stored. Empty text is accepted, as the document sets no minimum.
 */
export const MAX_TEXT_LENGTH = 4096;

export const Text = z.string({ error: 'must be a string' }).max(MAX_TEXT_LENGTH, `must be at most ${MAX_TEXT_LENGTH} characters`);

/** Why `value` is not an acceptable callbackUrl (an absolute http or https URL), or undefined. */
export function callbackUrlProblem(value: string): string | undefined {
  if (value.length > MAX_TEXT_LENGTH) return `must be at most ${MAX_TEXT_LENGTH} characters`;
  if (!/^https?:\/\/[^/\s]/i.test(value)) return 'must be an absolute URL starting with http:// or https://';
  try {
    new URL(value);
  } catch {
    return 'is not a valid URL';
  }
  return /\s/.test(value) ? 'must not contain spaces' : undefined;
}

/** RFC 3339 UTC with milliseconds, as every timestamp the sandbox writes. */
export const DateTime = z.iso.datetime({ precision: 3 });

/** A decimal number as a JSON string, without trailing zeros. */
export const Decimal = z.string().meta({ format: 'decimal', description: 'A decimal number as a string, without trailing zeros' });

/** A count of things: an integer from 0. */
export const Count = z.number().int().min(0);

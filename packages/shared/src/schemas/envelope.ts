import { z } from 'zod';
import { CODES, REASONS } from '../envelope.ts';

/** An object without fields: the payload of a call that takes none, the data of a reply that carries none. */
export const noFields = z.object({});

/** The envelope of a call that succeeded, around the call's own reply data. */
export const okEnvelope = <Data extends z.ZodType>(data: Data) =>
  z.object({ code: z.literal(CODES.ok), msg: z.string(), data });

/** `data` of a failed call: why, and what the caller needs to act on it. */
export const errorData = z.object({
  reason: z.enum(REASONS).optional(),
  /** The first bad field of a 400. */
  field: z.string().optional(),
  /** Seconds to wait before trying again (429, 503). */
  retry_after: z.number().int().optional(),
  /** The id the server logged a 5xx under. */
  request_id: z.string().optional(),
});

/** The envelope of a call that failed; its code equals the HTTP status. */
export const errorEnvelope = z.object({ code: z.number().int(), msg: z.string(), data: errorData });

import { z } from 'zod';

/** Building blocks shared by every area's schemas. */

/** An id in a path, body or query: any string; one that names nothing is a 404, not a 400. */
export const Id = z.string().min(1).max(200);
export const Name = z.string().trim().min(1).max(200);
export const LongText = z.string().max(10_000);
export const Url = z.string().max(2048).url();
export const Timestamp = z.string().describe('ISO 8601 timestamp');

/** `?flag=true|false|1|0`: booleans from a query string. */
export const QueryBoolean = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const Limit = (def: number, max = 100) => z.coerce.number().int().min(1).max(max).default(def);
export const PageNumber = z.coerce.number().int().min(1).max(1_000_000).default(1);

export const ListMeta = z.object({ page: z.number(), limit: z.number(), total: z.number() });

export const WorkspaceIdParams = z.object({ workspaceId: Id });

/** `{ data: T }`, the envelope of most results. */
export const envelope = <T extends z.ZodType>(schema: T) => z.object({ data: schema });

/** What deleting something answers: its id, gone. */
export const DeletedRecord = z.object({ id: z.string(), deleted: z.literal(true) });
export const Deleted = envelope(DeletedRecord);

export const ErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()),
  }),
});

/**
 * Zod validators for the messages interface's model listing and file
 * records (PROTOCOLS A.9).
 */
import { z } from 'zod';

/** One model in the vendor's shape. */
export const messagesModelSchema = z.looseObject({
  type: z.literal('model'),
  id: z.string(),
  display_name: z.string(),
  /** ISO 8601 timestamp. */
  created_at: z.string(),
});
export type MessagesModel = z.infer<typeof messagesModelSchema>;

/** `GET /v1/models` in the vendor's shape (cursor paging by id). */
export const messagesModelListSchema = z.looseObject({
  data: z.array(messagesModelSchema),
  has_more: z.boolean(),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
});
export type MessagesModelList = z.infer<typeof messagesModelListSchema>;

/** A file's metadata (`FileMetadata` in `files/file-store.ts`). */
export const fileMetadataSchema = z.looseObject({
  type: z.literal('file'),
  id: z.string(),
  filename: z.string(),
  mime_type: z.string(),
  size_bytes: z.int().min(0),
  created_at: z.string(),
  downloadable: z.boolean(),
});

/**
 * `GET /v1/files`: both paging styles (`has_more`/`first_id`/`last_id` for
 * 0.x clients, `next_page` for 1.x).
 */
export const fileListSchema = z.looseObject({
  data: z.array(fileMetadataSchema),
  has_more: z.boolean(),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
  next_page: z.string().nullish(),
});

/** `DELETE /v1/files/{id}` result. */
export const fileDeletedSchema = z.looseObject({
  id: z.string(),
  type: z.literal('file_deleted'),
});
export type FileDeleted = z.infer<typeof fileDeletedSchema>;

/**
 * BullMQ job IDs of a key. A job ID is unique in a queue, so a second `enqueue` of a key adds
 * nothing while its job exists; each `resend` opens a new generation with a new ID.
 */

/**
 * The job ID of generation `generation` of `key`: `<generation>-<key URL-encoded>`. BullMQ refuses
 * IDs with `:` and IDs that read as integers; the encoding has no `:` and the hyphen rules out an
 * integer, and distinct keys give distinct IDs.
 */
export function jobIdOf(key: string, generation: number): string {
  return `${generation}-${encodeURIComponent(key)}`;
}

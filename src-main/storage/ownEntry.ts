/**
 * `record[key]` when `key` is the record's own key, else `undefined`. Ids from URLs index plain
 * objects read from JSON files: without this, `__proto__`, `constructor` or `toString` would
 * find `Object.prototype`'s members and pass for an existing entry.
 */
export function ownEntry<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

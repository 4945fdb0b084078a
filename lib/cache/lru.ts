/**
 * A bounded least-recently-used map, in this process: for answers that cannot change and cost
 * CPU to make (QR images, signature checks), so a flood of the same request costs a lookup.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }

  get size() {
    return this.map.size;
  }
}

/** One instance per name per process, however many times Next loads the module that asks. */
export function sharedLru<K, V>(name: string, max: number): Lru<K, V> {
  const g = globalThis as unknown as { __prsLrus?: Map<string, Lru<unknown, unknown>> };
  const all = (g.__prsLrus ??= new Map());
  if (!all.has(name)) all.set(name, new Lru(max));
  return all.get(name) as Lru<K, V>;
}

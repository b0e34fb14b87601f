/** Says yes to a key at most once per `everyMs`; remembers up to `maxKeys` keys (then starts afresh). */
export class Throttle {
  private readonly last = new Map<string, number>();
  constructor(
    private readonly everyMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  due(key: string, now = Date.now()): boolean {
    const at = this.last.get(key);
    if (at !== undefined && now - at < this.everyMs) return false;
    if (this.last.size >= this.maxKeys) this.last.clear();
    this.last.set(key, now);
    return true;
  }
}

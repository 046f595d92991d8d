/**
 * Strings kept as UTF-16 code units in one growing buffer instead of one heap string each (the TM
 * index keeps a million texts: docs/translation-memory.md, "Candidate index: measured"). A record
 * whose code units are all below 256 (Latin-1: most European text, and the index's stored forms,
 * whose number and tag characters are control characters) takes one byte a code unit; any other
 * takes two, at an even offset, read through a 16-bit view of the same buffer. Pure; no I/O.
 *
 * A record is named by its handle: the byte offset divided by two (records start at even offsets),
 * times two, plus one for a two-byte record. Handles fit 32 bits for pools up to 4 GiB. Records are
 * never moved except by `compact`, which copies the live ones into a new buffer and tells the caller
 * their new handles.
 */
/** A typed array of `length` elements, over a SharedArrayBuffer when `shared` (another thread may read it). */
export function typedArray<T>(
  Kind: { new (buffer: SharedArrayBuffer): T; new (length: number): T; BYTES_PER_ELEMENT: number },
  length: number,
  shared: boolean,
): T {
  return shared ? new Kind(new SharedArrayBuffer(Kind.BYTES_PER_ELEMENT * length)) : new Kind(length);
}

export class UnitPool {
  /** The buffer, a byte a code unit for one-byte records. */
  bytes: Uint8Array;
  /** The same buffer, for two-byte records. */
  words: Uint16Array;
  private top = 0;
  /** Bytes of removed records, for deciding when to compact. */
  private deadBytes = 0;

  /**
   * With `shared`, the buffer is a SharedArrayBuffer (another thread may read it: `adopt`).
   * `initialBytes`: the buffer's first size (when the records to come are known roughly).
   */
  constructor(
    private readonly shared = false,
    initialBytes = 0,
  ) {
    this.bytes = typedArray(Uint8Array, Math.max(1 << 16, initialBytes + (initialBytes & 1)), this.shared);
    this.words = new Uint16Array(this.bytes.buffer);
  }

  /** Reads the records of another pool's buffer (shared with the thread that writes it). */
  adopt(bytes: Uint8Array): void {
    this.bytes = bytes;
    this.words = new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 1);
    this.top = bytes.length;
  }

  /** Bytes in use (live and dead records). */
  get usedBytes(): number {
    return this.top;
  }

  /** Bytes of records removed since the last compaction. */
  get removedBytes(): number {
    return this.deadBytes;
  }

  /** Stores the code units of `parts`, one after the other, as one record; returns its handle. */
  add(parts: readonly string[]): number {
    let units = 0;
    let wide = false;
    for (const part of parts) {
      units += part.length;
      if (!wide) for (let i = 0; i < part.length; i++) if (part.charCodeAt(i) > 0xff) wide = true;
    }
    const size = wide ? 2 * units : units;
    this.reserve(size);
    const at = this.top;
    if (wide) {
      let w = at >>> 1;
      for (const part of parts) for (let i = 0; i < part.length; i++) this.words[w++] = part.charCodeAt(i);
    } else {
      let b = at;
      for (const part of parts) for (let i = 0; i < part.length; i++) this.bytes[b++] = part.charCodeAt(i);
    }
    this.top = at + size + (size & 1);
    return at + (wide ? 1 : 0);
  }

  /** Marks a record of `units` code units removed (its bytes are reclaimed by `compact`). */
  remove(handle: number, units: number): void {
    this.deadBytes += UnitPool.isWide(handle) ? 2 * units : units + (units & 1);
  }

  static isWide(handle: number): boolean {
    return (handle & 1) === 1;
  }

  /** The array a record's code units are read from: `bytes` or `words`. */
  unitsOf(handle: number): Uint8Array | Uint16Array {
    return (handle & 1) === 1 ? this.words : this.bytes;
  }

  /** The index in `unitsOf(handle)` of the record's first code unit. */
  static startOf(handle: number): number {
    return (handle & 1) === 1 ? (handle - 1) >>> 1 : handle;
  }

  /** The code units `[from, to)` of a record as a string. */
  read(handle: number, from: number, to: number): string {
    const units = this.unitsOf(handle);
    const start = UnitPool.startOf(handle);
    let text = '';
    // In chunks, so that the argument list stays small.
    for (let at = start + from; at < start + to; at += 4096) {
      text += String.fromCharCode(...units.subarray(at, Math.min(at + 4096, start + to)));
    }
    return text;
  }

  /** Whether the code units `[from, from + text.length)` of a record are `text`. */
  equals(handle: number, from: number, text: string): boolean {
    const units = this.unitsOf(handle);
    const start = UnitPool.startOf(handle) + from;
    for (let i = 0; i < text.length; i++) if (units[start + i] !== text.charCodeAt(i)) return false;
    return true;
  }

  /**
   * Copies the live records into a new buffer sized to them: `records` gives each live record's
   * handle and code units and receives the new handle (records in the order given).
   */
  compact(records: { count: number; handle(i: number): number; units(i: number): number; moved(i: number, handle: number): void }): void {
    let size = 0;
    for (let i = 0; i < records.count; i++) {
      const units = records.units(i);
      size += UnitPool.isWide(records.handle(i)) ? 2 * units : units + (units & 1);
    }
    const capacity = Math.max(1 << 16, size + Math.floor(size / 8));
    // Even, for the 16-bit view.
    const bytes = typedArray(Uint8Array, capacity + (capacity % 2), this.shared);
    const words = new Uint16Array(bytes.buffer);
    let top = 0;
    for (let i = 0; i < records.count; i++) {
      const handle = records.handle(i);
      const units = records.units(i);
      const wide = UnitPool.isWide(handle);
      const from = wide ? handle - 1 : handle;
      const bytesOf = wide ? 2 * units : units;
      bytes.set(this.bytes.subarray(from, from + bytesOf), top);
      records.moved(i, top + (wide ? 1 : 0));
      top += bytesOf + (bytesOf & 1);
    }
    this.bytes = bytes;
    this.words = words;
    this.top = top;
    this.deadBytes = 0;
  }

  private reserve(size: number): void {
    const need = this.top + size + 1;
    if (need <= this.bytes.length) return;
    let capacity = this.bytes.length;
    while (capacity < need) capacity *= 2;
    const bytes = typedArray(Uint8Array, capacity, this.shared);
    bytes.set(this.bytes.subarray(0, this.top));
    this.bytes = bytes;
    this.words = new Uint16Array(bytes.buffer);
  }
}

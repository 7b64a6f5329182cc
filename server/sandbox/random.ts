// Deterministic randomness for the sandbox's data (category ids, prices, the order stream): every value is a pure
// function of the seed and a label, so two sandboxes with one seed hold the same tree and the same orders.

/** FNV-1a over the text: a stable 32-bit hash. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A number in [0, 1) fixed by the parts. */
export function unit(...parts: (string | number)[]): number {
  // mulberry32's finaliser over the hash spreads nearby labels apart.
  let t = (hash32(parts.join("\u0001")) + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** A whole number in [min, max] fixed by the parts. */
export function between(min: number, max: number, ...parts: (string | number)[]): number {
  return min + Math.floor(unit(...parts) * (max - min + 1));
}

/** One of the choices, fixed by the parts. */
export function pick<T>(choices: readonly T[], ...parts: (string | number)[]): T {
  return choices[Math.floor(unit(...parts) * choices.length)];
}

/** A sequence generator (mulberry32) for walks that draw many numbers in a fixed order. */
export function sequence(seed: string): () => number {
  let a = hash32(seed);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A multi-pattern word matcher (Aho–Corasick): built once from a word list, then one pass over a text finds every
// word in it. Case-insensitive (NFC, then Unicode lower-casing, on the words and the text alike). With `wholeWords`
// (the default) a word is matched as a whole word in the scripts that separate words — Latin, Cyrillic, Greek, digits
// and the like: a match must not sit inside a longer word (no letter, digit or mark of such a script right before a
// word that starts with one, or right after a word that ends with one). Scripts written without spaces (Han, kana,
// Hangul, Thai, Lao, Khmer, Myanmar) match as substrings, so "耐克" is found in "正品耐克运动鞋" and "nike" is not found
// in "nikelab" but is in "耐克nike鞋". Without `wholeWords` every word matches as a substring.

export type MatcherOptions = { wholeWords?: boolean };

export type WordMatcher = {
  /** How many distinct words (after normalization) the matcher holds. */
  readonly size: number;
  /** The distinct words found in the text, as first given in the list, in the order of their first match's end. */
  findAll(text: string): string[];
  /** Whether any word is found (stops at the first). */
  test(text: string): boolean;
};

/** The form words and texts are compared in. */
export const normalizeWord = (s: string) => s.normalize("NFC").toLowerCase();

const wordChar = /[\p{L}\p{N}\p{M}]/u;
const unspacedScript =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Bopomofo}]/u;

/** A character of a script that separates words: a match may not continue into it. */
function isBoundedChar(ch: string | undefined): boolean {
  return ch !== undefined && wordChar.test(ch) && !unspacedScript.test(ch);
}

export function createWordMatcher(words: Iterable<string>, options: MatcherOptions = {}): WordMatcher {
  const wholeWords = options.wholeWords ?? true;
  // The trie: per node its transitions (by code point), failure link, and the word ending here (index) if any.
  const next: Map<number, number>[] = [new Map()];
  const fail: number[] = [0];
  const wordAt: number[] = [-1];
  /** The nearest node on the failure chain (excluding itself) where a word ends, or -1. */
  const outLink: number[] = [-1];
  const originals: string[] = [];
  const lengths: number[] = []; // in code points
  const checkStart: boolean[] = [];
  const checkEnd: boolean[] = [];

  for (const raw of words) {
    const w = normalizeWord(raw.trim());
    if (!w) continue;
    const cps = Array.from(w);
    let node = 0;
    for (const ch of cps) {
      const cp = ch.codePointAt(0)!;
      let to = next[node].get(cp);
      if (to === undefined) {
        to = next.length;
        next.push(new Map());
        fail.push(0);
        wordAt.push(-1);
        outLink.push(-1);
        next[node].set(cp, to);
      }
      node = to;
    }
    if (wordAt[node] !== -1) continue; // the same word again (after normalization): the first spelling stays
    wordAt[node] = originals.length;
    originals.push(raw.trim());
    lengths.push(cps.length);
    checkStart.push(wholeWords && isBoundedChar(cps[0]));
    checkEnd.push(wholeWords && isBoundedChar(cps[cps.length - 1]));
  }

  // Failure links, breadth first.
  const queue: number[] = [];
  for (const to of next[0].values()) queue.push(to);
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head];
    for (const [cp, to] of next[node]) {
      let f = fail[node];
      while (f !== 0 && !next[f].has(cp)) f = fail[f];
      const target = next[f].get(cp);
      fail[to] = target !== undefined && target !== to ? target : 0;
      outLink[to] = wordAt[fail[to]] !== -1 ? fail[to] : outLink[fail[to]];
      queue.push(to);
    }
  }

  // Which words a scan already reported: the scan's number in each word's slot, so one array serves every scan
  // (a fresh array per text cost more than the scan itself with 10,000 words).
  const seenIn = new Uint32Array(originals.length);
  let scanNumber = 0;

  function scan(text: string, stopAtFirst: boolean): string[] {
    const found: string[] = [];
    if (!originals.length || !text) return found;
    const chars = Array.from(normalizeWord(text));
    if (++scanNumber === 0xffffffff) {
      seenIn.fill(0);
      scanNumber = 1;
    }
    let node = 0;
    for (let i = 0; i < chars.length; i++) {
      const cp = chars[i].codePointAt(0)!;
      while (node !== 0 && !next[node].has(cp)) node = fail[node];
      node = next[node].get(cp) ?? 0;
      for (let n = wordAt[node] !== -1 ? node : outLink[node]; n !== -1; n = outLink[n]) {
        const w = wordAt[n];
        if (seenIn[w] === scanNumber) continue;
        const start = i - lengths[w] + 1;
        if (checkStart[w] && isBoundedChar(chars[start - 1])) continue;
        if (checkEnd[w] && isBoundedChar(chars[i + 1])) continue;
        seenIn[w] = scanNumber;
        found.push(originals[w]);
        if (stopAtFirst) return found;
      }
    }
    return found;
  }

  return {
    size: originals.length,
    findAll: (text) => scan(text, false),
    test: (text) => scan(text, true).length > 0,
  };
}

/** The word a product is flagged with when several are found: the longest, then the first in code-point order. */
export function pickWord(found: string[]): string | null {
  let best: string | null = null;
  for (const w of found) {
    if (best === null || w.length > best.length || (w.length === best.length && w < best)) best = w;
  }
  return best;
}

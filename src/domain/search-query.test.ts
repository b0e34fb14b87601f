import { describe, expect, it } from 'vitest';
import { HIGHLIGHT_END as E, HIGHLIGHT_START as S } from './schemas/search';
import {
  clipHighlighted,
  hasHighlight,
  markSubstrings,
  prefixTsquery,
  SEARCH_MAX_WORDS,
  searchWords,
  stripHighlights,
} from './search-query';

/** Every character to_tsquery treats as syntax. */
const TSQUERY_SYNTAX = /[&|!():*<>'"\\]/;

describe('searchWords', () => {
  it('splits on spaces and punctuation, keeps joiners inside a word', () => {
    expect(searchWords('  design   review ')).toEqual(['design', 'review']);
    expect(searchWords('e-mail v1.2 a@b.com src/app c++ #12 snake_case')).toEqual([
      'e-mail',
      'v1.2',
      'a@b.com',
      'src/app',
      'c++',
      '#12',
      'snake_case',
    ]);
    expect(searchWords('design,review;now')).toEqual(['design', 'review', 'now']);
  });

  it('neutralises every tsquery operator, quote and backslash', () => {
    const first = searchWords(`a&b | !c (d) e:* <-> f<2>g`);
    const second = searchWords(`'h' "i" j\\k l''m n\\'o`);
    expect(first).toEqual(['a', 'b', 'c', 'd', 'e', 'f', '2', 'g']);
    expect(second).toEqual(['h', 'i', 'j', 'k', 'l', 'm', 'n', 'o']);
    for (const w of [...first, ...second]) expect(w).not.toMatch(TSQUERY_SYNTAX);
  });

  it('drops what has no letter or digit, and control characters, emoji and the highlight markers', () => {
    expect(searchWords('')).toEqual([]);
    expect(searchWords(' \t\n ')).toEqual([]);
    expect(searchWords('&&& ||| !!! --- ... ### :*')).toEqual([]);
    expect(searchWords('🚀 🎉')).toEqual([]);
    expect(searchWords(`x${S}y${E}z\u0007w`)).toEqual(['x', 'y', 'z', 'w']);
    expect(searchWords('design🚀review')).toEqual(['design', 'review']);
    expect(searchWords('\u200fשלום\u200f مرحبا')).toEqual(['שלום', 'مرحبا']);
  });

  it('normalises to NFC, keeps combining marks with their letter, and dedupes case-insensitively', () => {
    expect(searchWords('re\u0301sume\u0301')).toEqual(['résumé']);
    expect(searchWords('Design design DESIGN review')).toEqual(['Design', 'review']);
    expect(searchWords('\u0301\u0301')).toEqual([]);
  });

  it(`keeps at most ${SEARCH_MAX_WORDS} words`, () => {
    const words = searchWords(Array.from({ length: 30 }, (_, i) => `w${i}`).join(' '));
    expect(words).toHaveLength(SEARCH_MAX_WORDS);
    expect(words[0]).toBe('w0');
  });
});

describe('prefixTsquery', () => {
  it('quotes each word as a prefix and ANDs them', () => {
    expect(prefixTsquery(['desi'])).toBe(`'desi':*`);
    expect(prefixTsquery(['Design', 'rev'])).toBe(`'Design':* & 'rev':*`);
    expect(prefixTsquery([])).toBeNull();
  });

  it('doubles a quote or backslash (never produced by searchWords, but safe if given)', () => {
    expect(prefixTsquery([`o'brien`, 'a\\b'])).toBe(`'o''brien':* & 'a\\\\b':*`);
  });

  it('yields only quoted operands for any input (a seeded random fuzz)', () => {
    let seed = 42;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const alphabet = [...`abcXYZ019 &|!():*<>'"\\-_.@/+#é\u0301\u200f\u0002\u0003🚀שل\t\n`];
    for (let n = 0; n < 500; n++) {
      const q = Array.from({ length: Math.floor(rand() * 60) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
      const tsq = prefixTsquery(searchWords(q));
      if (tsq === null) continue;
      // Every operand is a quoted word without syntax inside, followed by :*; operands joined by ' & '.
      for (const operand of tsq.split(' & ')) expect(operand).toMatch(/^'[^&|!():*<>'"\\]+':\*$/u);
    }
  });
});

describe('highlights', () => {
  it('strips and detects markers', () => {
    expect(stripHighlights(`a${S}b${E}c${S}`)).toBe('abc');
    expect(hasHighlight(`a${S}b${E}`)).toBe(true);
    expect(hasHighlight('abc')).toBe(false);
  });

  it('clips to the visible length, at a space, closing an open highlight', () => {
    expect(clipHighlighted('short', 10)).toBe('short');
    expect(clipHighlighted(`${S}abc${E}de`, 5)).toBe(`${S}abc${E}de`);
    expect(clipHighlighted('one two three four', 12)).toBe('one two…');
    expect(clipHighlighted(`aaaa ${S}bbbbbbbbbb${E}`, 8)).toBe('aaaa…');
    expect(clipHighlighted(`${S}abcdefghijklmnop${E}`, 6)).toBe(`${S}abcde${E}…`);
    const clipped = clipHighlighted('😀'.repeat(10), 4);
    expect([...clipped]).toEqual(['😀', '😀', '😀', '…']);
  });

  it('marks substrings case-insensitively, merging overlaps, after stripping stored markers', () => {
    expect(markSubstrings('ada.lovelace@example.com', ['love', 'EXAMPLE'])).toBe(`ada.${S}love${E}lace@${S}example${E}.com`);
    expect(markSubstrings('abcabc', ['bca', 'cab'])).toBe(`a${S}bcab${E}c`);
    expect(markSubstrings(`x${S}y${E}z`, ['q'])).toBe('xyz');
    expect(markSubstrings('nothing', [])).toBe('nothing');
  });
});

import { describe, expect, it } from 'vitest';
import { commentAsText } from './comment-text';

const MIA = '0b7c1f5e-1d2a-4c3b-9a8e-112233445566';
const GONE = '99999999-1d2a-4c3b-9a8e-112233445566';
const names = (id: string) => (id === MIA ? 'Mia Member' : undefined);

describe('commentAsText', () => {
  it('writes each mention with the current name, and @someone for an account that is gone', () => {
    expect(commentAsText(`Hi <@${MIA}>, ask <@${GONE}>. Again <@${MIA.toUpperCase()}>`, names)).toBe(
      'Hi @Mia Member, ask @someone. Again @Mia Member',
    );
  });

  it('leaves text that only looks like a mention alone, and trims', () => {
    expect(commentAsText('  <@not-an-id> and <@123>  ', names)).toBe('<@not-an-id> and <@123>');
  });

  it('cuts a long text at a word boundary with an ellipsis, within the limit', () => {
    const text = commentAsText('word '.repeat(200), names, 50);
    expect(text.length).toBeLessThanOrEqual(50);
    expect(text).toMatch(/^(word )*word…$/);
    expect(commentAsText('x'.repeat(80), names, 50)).toBe(`${'x'.repeat(49)}…`);
    expect(commentAsText('short', names, 50)).toBe('short');
  });
});

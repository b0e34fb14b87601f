import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { HIGHLIGHT_END as E, HIGHLIGHT_START as S } from '../../../../domain/schemas/search';
import { Highlighted, plainText } from './highlighted';

const html = (text: string) => renderToStaticMarkup(<Highlighted text={text} />).replace(/ class="[^"]*"/g, '');

describe('Highlighted', () => {
  it('marks the matches and keeps the rest as text', () => {
    expect(html(`Fix the ${S}login${E} page for ${S}Zoë${E}`)).toBe('Fix the <mark>login</mark> page for <mark>Zoë</mark>');
  });

  it('never renders the text as HTML, marked or not', () => {
    expect(html(`<img src=x onerror=alert(1)> ${S}<b>bold</b>${E}`)).toBe(
      '&lt;img src=x onerror=alert(1)&gt; <mark>&lt;b&gt;bold&lt;/b&gt;</mark>',
    );
  });

  it('drops stray or unbalanced markers', () => {
    expect(html(`a${E}b${S}c`)).toBe('abc');
    expect(plainText(`${S}x${E}y`)).toBe('xy');
  });
});

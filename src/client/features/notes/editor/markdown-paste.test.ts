import { describe, expect, it } from 'vitest';
import { looksLikeMarkdown, markdownToHtml } from './markdown-paste';

describe('looksLikeMarkdown', () => {
  it.each([
    '# Heading',
    '### Third',
    'Intro\n- one\n- two',
    '* star item',
    '1. first\n2. second',
    '- [ ] open task\n- [x] done',
    '> quoted',
    '```\ncode\n```',
    '| a | b |\n|---|---|\n| 1 | 2 |',
    'see [the spec](https://example.org)',
    'this is **bold** text',
    'run `npm test` now',
    'a ~~struck~~ word',
  ])('reads %j as Markdown', (text) => {
    expect(looksLikeMarkdown(text)).toBe(true);
  });

  it.each([
    'Just a sentence.',
    'Version 1.5 shipped on 2024-05-01',
    '5 * 3 = 15',
    '#hashtag without a space',
    '<img src=x onerror=alert(1)>',
    'email me at a@b.c',
    '',
  ])('reads %j as plain text', (text) => {
    expect(looksLikeMarkdown(text)).toBe(false);
  });
});

describe('markdownToHtml', () => {
  it('turns headings, lists, code and tables into HTML', () => {
    const html = markdownToHtml('# Title\n\n- a\n- b\n\n```js\nx\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<ul>');
    expect(html).toContain('<code class="language-js">');
    expect(html).toContain('<table>');
  });

  it('makes GFM task lists into checklists', () => {
    const html = markdownToHtml('- [ ] open\n- [x] done');
    expect(html).toBe(
      '<ul data-type="taskList"><li data-type="taskItem" data-checked="false">open</li><li data-type="taskItem" data-checked="true">done</li></ul>',
    );
    expect(html).not.toContain('<input');
  });

  it('keeps raw HTML as text', () => {
    const html = markdownToHtml('# x\n\n<img src=x onerror="alert(1)">\n\ninline <script>alert(1)</script> too');
    expect(html).not.toMatch(/<img|<script/);
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(html).toContain('&lt;script&gt;');
  });
});

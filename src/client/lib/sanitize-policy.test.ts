// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import {
  isAllowedHref,
  isAllowedImageSrc,
  MARKDOWN_POLICY,
  NOTE_POLICY,
  type SanitizePolicy,
  sanitizeHtml,
} from './sanitize-policy';

describe('isAllowedHref', () => {
  it.each(['https://example.org', 'http://example.org/a?b#c', 'mailto:a@example.org'])('allows %s', (href) => {
    expect(isAllowedHref(href)).toBe(true);
  });
  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:x',
    '/relative',
    '//evil.example',
    'ftp://example.org',
    '',
  ])('refuses %j', (href) => {
    expect(isAllowedHref(href)).toBe(false);
  });
});

describe('isAllowedImageSrc', () => {
  const origin = 'https://crew.example';
  it('allows the app API paths only', () => {
    expect(isAllowedImageSrc('/api/notes/1/images/2', origin)).toBe(true);
    expect(isAllowedImageSrc('https://crew.example/api/files/x', origin)).toBe(true);
    expect(isAllowedImageSrc('https://tracker.example/pixel.gif', origin)).toBe(false);
    expect(isAllowedImageSrc('//tracker.example/p.gif', origin)).toBe(false);
    expect(isAllowedImageSrc('data:image/png;base64,AAAA', origin)).toBe(false);
    expect(isAllowedImageSrc('javascript:alert(1)', origin)).toBe(false);
    expect(isAllowedImageSrc('x', origin)).toBe(false);
  });
});

/** Markup that uses every tag both policies name, as a parser would serialise it (so kept, it comes back unchanged). */
const COMMON =
  '<p>a<br><strong>b</strong> <em>c</em> <del>d</del> <code>e</code> <span>f</span> <a href="https://example.org/">g</a></p>' +
  '<pre>h</pre><blockquote>i</blockquote><ul><li>j</li></ul><ol><li>k</li></ol><h4>l</h4><h5>m</h5><h6>n</h6><hr>' +
  '<table><thead><tr><th>o</th></tr></thead><tbody><tr><td>p</td></tr></tbody></table>';

const POLICIES: [string, SanitizePolicy][] = [
  ['MARKDOWN_POLICY', MARKDOWN_POLICY],
  ['NOTE_POLICY', NOTE_POLICY],
];

describe.each(POLICIES)('%s', (_name, policy) => {
  it('strips scripts, event handlers and javascript: URLs', () => {
    const out = sanitizeHtml(
      '<p>x<script>window.__xss=1</script></p>' +
        '<p onclick="window.__xss=1"><span onerror="window.__xss=1">y</span></p>' +
        '<a href="javascript:window.__xss=1">z</a><a href=" JaVaScRiPt:window.__xss=1">w</a>' +
        '<iframe src="javascript:window.__xss=1"></iframe><svg onload="window.__xss=1"></svg>' +
        '<img src=x onerror="window.__xss=1"><div style="background:url(javascript:x)">v</div>',
      policy,
    );
    expect(out).not.toMatch(/<script|<iframe|<svg|\son\w+=|javascript:|style=|__xss/i);
    expect(out).toContain('<p>x</p>');
    expect(out).toContain('<a>z</a>');
  });

  it('keeps every tag it names', () => {
    const out = sanitizeHtml(COMMON, policy);
    expect(out).toBe(COMMON);
    for (const tag of ['p', 'table', 'a', 'span']) expect(policy.tags).toContain(tag);
  });

  it('drops a tag it does not name, keeping the text', () => {
    expect(sanitizeHtml('<p><marquee>moving</marquee> <font color="red">text</font></p>', policy)).toBe('<p>moving text</p>');
  });
});

describe('MARKDOWN_POLICY', () => {
  it('keeps the attributes the Markdown renderer writes', () => {
    const html =
      '<p><a href="https://example.org/" title="t" target="_blank" rel="noopener noreferrer">x</a> ' +
      '<a href="/tasks/1" data-internal="">y</a> <a href="mailto:a@example.org">z</a></p>' +
      '<h4 class="md-h1">h</h4><p><span class="md-mention">@Ann</span></p>' +
      '<ol start="3"><li>o</li></ol><table><thead><tr><th align="left">a</th></tr></thead></table>';
    expect(sanitizeHtml(html, MARKDOWN_POLICY)).toBe(html);
  });

  it('drops what the renderer never writes: other data attributes, images, big headings', () => {
    expect(sanitizeHtml('<p data-x="1">a</p><h1>b</h1><img src="/api/x.png" alt="c">', MARKDOWN_POLICY)).toBe('<p>a</p>b');
  });

  it('allows links only to http(s), mailto and paths of the app', () => {
    expect(sanitizeHtml('<a href="//evil.example/x">a</a><a href="data:text/html,x">b</a>', MARKDOWN_POLICY)).toBe(
      '<a>a</a><a>b</a>',
    );
  });
});

describe('NOTE_POLICY', () => {
  it('keeps the tags and attributes of a note', () => {
    const html =
      '<h1>a</h1><h2>b</h2><h3>c</h3><p><b>d</b><i>e</i><s>f</s><strike>g</strike><u>h</u></p>' +
      `<div><img src="/api/notes/1/images/2" alt="i" title="j"> <img src="${window.location.origin}/api/x.png" alt=""></div>` +
      '<p><a href="https://example.org/" title="k">l</a> <a href="mailto:a@example.org">m</a></p>' +
      '<pre><code class="language-ts">n</code></pre>';
    expect(sanitizeHtml(html, NOTE_POLICY)).toBe(html);
  });

  it('drops remote images, relative links and every class but a code block language', () => {
    const out = sanitizeHtml(
      '<p class="x"><img src="https://tracker.example/p.gif"><a href="/relative" class="y">a</a></p>' +
        '<pre><code class="language-ts evil">b</code></pre>',
      NOTE_POLICY,
    );
    expect(out).toBe('<p><a>a</a></p><pre><code>b</code></pre>');
  });

  it('keeps the values of the attributes that are not addresses: a checklist, a table cell span, a list start, a mention', () => {
    const html =
      '<ul data-type="taskList"><li data-type="taskItem" data-checked="true">done</li></ul>' +
      '<ol start="3"><li>c</li></ol><table><tbody><tr><td colspan="2" rowspan="2">x</td></tr></tbody></table>' +
      '<p><span data-type="mention" data-id="u1" data-label="Ann">@Ann</span></p>';
    expect(sanitizeHtml(html, NOTE_POLICY)).toBe(html);
  });

  it('does not run its element rules for Markdown (each policy has its own sanitizer)', () => {
    sanitizeHtml('<p class="x">warm up</p>', NOTE_POLICY);
    expect(sanitizeHtml('<span class="md-mention">@Ann</span>', MARKDOWN_POLICY)).toBe('<span class="md-mention">@Ann</span>');
    expect(sanitizeHtml('<span class="md-mention">@Ann</span>', NOTE_POLICY)).toBe('<span>@Ann</span>');
  });
});

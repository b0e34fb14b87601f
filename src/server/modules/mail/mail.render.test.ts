import { describe, expect, it } from 'vitest';
import { escapeHtml, renderMail } from './mail.render';

describe('renderMail', () => {
  const mail = renderMail({
    subject: 'Reset your password',
    heading: 'Reset your password for <Crewboard>',
    paragraphs: ['Someone asked to reset the password of "alex@example.com".'],
    action: { label: 'Reset password', url: 'https://crew.example/reset-password?token=a&b=<x>' },
    footer: 'If it was not you, ignore this mail.',
  });

  it('writes every link out in full in the text part', () => {
    expect(mail.text).toContain('Reset password: https://crew.example/reset-password?token=a&b=<x>');
    expect(mail.text.startsWith('Reset your password for <Crewboard>\n\n')).toBe(true);
  });

  it('escapes what it is given in the HTML part, attributes included', () => {
    expect(mail.html).toContain('Reset your password for &lt;Crewboard&gt;');
    expect(mail.html).toContain('&quot;alex@example.com&quot;');
    expect(mail.html).toContain('href="https://crew.example/reset-password?token=a&amp;b=&lt;x&gt;"');
    expect(mail.html).not.toMatch(/<x>|<Crewboard>/);
  });

  it('writes each footer line on its own, in both parts', () => {
    const twoLines = renderMail({
      subject: 's',
      heading: 'h',
      paragraphs: [],
      footer: ['Reply to this email to comment', 'Why <you>'],
    });
    expect(twoLines.text.endsWith('—\nReply to this email to comment\nWhy <you>')).toBe(true);
    expect(twoLines.html.match(/font-size:12px/g)).toHaveLength(2);
    expect(twoLines.html).toContain('Why &lt;you&gt;');
  });

  it('has no images (no tracking pixels)', () => {
    expect(mail.html).not.toMatch(/<img/i);
  });

  it('escapes the five characters that open markup or attributes', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});

import { describe, expect, it } from 'vitest';
import { countMimeParts, htmlToMarkdown, MAX_MIME_PARTS, parseMessage, replyText, UnreadableMessage } from './message';

const raw = (headers: string, body: string) => Buffer.from(`${headers.trim().split('\n').join('\r\n')}\r\n\r\n${body}`);

describe('a received message', () => {
  it('is known by its Message-ID, else by its bytes', async () => {
    const a = await parseMessage(raw('From: a@x.test\nMessage-ID: <1@x.test>\nSubject: one', 'x'));
    const b = await parseMessage(raw('From: b@x.test\nMessage-ID: <1@x.test>\nSubject: two', 'y'));
    const c = await parseMessage(raw('From: b@x.test\nSubject: two', 'y'));
    expect(a.hash).toBe(b.hash);
    expect(c.hash).not.toBe(b.hash);
    expect(a.from).toBe('a@x.test');
  });

  it('reads its recipients from To, Cc, Delivered-To and X-Original-To', async () => {
    const m = await parseMessage(
      raw(
        'From: a@x.test\nTo: One <one@in.test>\nCc: two@in.test\nDelivered-To: three@in.test\nX-Original-To: four@in.test',
        'x',
      ),
    );
    expect(m.headerRecipients).toEqual(['one@in.test', 'two@in.test', 'three@in.test', 'four@in.test']);
  });

  it('knows automatic mail', async () => {
    const auto = (h: string) => parseMessage(raw(`From: a@x.test\n${h}`, 'x')).then((m) => m.automatic);
    expect(await auto('Auto-Submitted: auto-replied')).toBe(true);
    expect(await auto('Auto-Submitted: no')).toBe(false);
    expect(await auto('Precedence: bulk')).toBe(true);
    expect(await auto('X-Autoreply: yes')).toBe(true);
    expect(await auto('X-Auto-Response-Suppress: OOF')).toBe(false);
    expect(await auto('Subject: hello')).toBe(false);
  });

  it('turns HTML into Markdown without scripts, styles or embedded images', () => {
    const md = htmlToMarkdown(
      '<head><title>T</title></head><style>p{}</style><h1>Title</h1><p>a <i>b</i></p><script>x()</script><iframe src="https://e.test"></iframe><img src="cid:1"><img src="https://e.test/i.png" alt="pic">',
    );
    expect(md).toBe('# Title\n\na _b_\n\n[pic](https://e.test/i.png)');
  });

  it('keeps links to http(s) and mailto only: javascript: and data: links are their text', () => {
    const md = htmlToMarkdown(
      '<p><a href="javascript:alert(1)" onclick="x()">one</a> <a href=" JaVaScRiPt:alert(2)">two</a> <a href="data:text/html,x">three</a> <a href="https://e.test/" onmouseover="x()">four</a> <a href="mailto:a@e.test">five</a></p>',
    );
    expect(md).toBe('one two three [four](https://e.test/) [five](mailto:a@e.test)');
  });

  it('takes control characters out of the subject, the text and the sender', async () => {
    const m = await parseMessage(raw('From: a@x.test\nSubject: =?utf-8?q?a=00b=1B=E2=80=AEc?=', 'one\u0000two\r\nthree'));
    expect(m.subject).toBe('abc');
    expect(m.body).toBe('onetwo\nthree');
  });

  it('refuses a mail bomb of parts, many or nested deep, before mailparser (which never settles past 1,000)', async () => {
    const many = (n: number) =>
      Buffer.from(
        `From: a@x.test\r\nContent-Type: multipart/mixed; boundary="B"\r\n\r\n${'--B\r\nContent-Type: text/plain\r\n\r\nx\r\n'.repeat(n)}--B--\r\n`,
      );
    expect(countMimeParts(many(3))).toBe(3);
    expect((await parseMessage(many(3))).body).toContain('x');
    await expect(parseMessage(many(1001))).rejects.toEqual(new UnreadableMessage('too_many_parts'));
    let nested = 'From: a@x.test\r\nContent-Type: multipart/mixed; boundary="b0"\r\n\r\n';
    for (let i = 1; i <= MAX_MIME_PARTS + 1; i++)
      nested += `--b${i - 1}\r\nContent-Type: multipart/mixed; boundary="b${i}"\r\n\r\n`;
    await expect(parseMessage(Buffer.from(nested))).rejects.toBeInstanceOf(UnreadableMessage);
  });

  it("keeps a reply's own words: no quote, no signature", () => {
    expect(replyText('Done.\n\n-- \nMia\n\nOn Sun, Nov 29, 2026 at 9:00 AM Crewboard <c@x.test> wrote:\n> old\n')).toBe('Done.');
  });
});

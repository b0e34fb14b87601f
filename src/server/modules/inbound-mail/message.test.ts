import { describe, expect, it } from 'vitest';
import { htmlToMarkdown, parseMessage, replyText } from './message';

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

  it("keeps a reply's own words: no quote, no signature", () => {
    expect(replyText('Done.\n\n-- \nMia\n\nOn Sun, Nov 29, 2026 at 9:00 AM Crewboard <c@x.test> wrote:\n> old\n')).toBe('Done.');
  });
});

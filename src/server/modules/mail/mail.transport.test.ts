import { describe, expect, it } from 'vitest';
import { renderMail } from './mail.render';
import { createMailTransport, linksIn, logTransport } from './mail.transport';

describe('the log transport (no SMTP_URL)', () => {
  it('writes one line per mail: recipient, subject and every link in it', async () => {
    const lines: { obj: object; msg: string }[] = [];
    const transport = logTransport({ info: (obj, msg) => lines.push({ obj, msg }) });
    const mail = renderMail({
      subject: 'Reset your password',
      heading: 'Reset your password',
      paragraphs: ['Or start from https://crew.example/forgot-password, or read https://crew.example/help.'],
      action: { label: 'Reset password', url: 'https://crew.example/reset-password?token=abc_DEF-123' },
    });
    await transport.send(
      { from: 'Crewboard <no-reply@crew.example>', to: 'ada@example.com', ...mail },
      new AbortController().signal,
    );

    expect(transport.kind).toBe('log');
    expect(lines).toEqual([
      {
        msg: 'mail (SMTP_URL not set: logged, not sent)',
        obj: {
          mail: {
            to: 'ada@example.com',
            subject: 'Reset your password',
            links: [
              'https://crew.example/forgot-password',
              'https://crew.example/help',
              'https://crew.example/reset-password?token=abc_DEF-123',
            ],
          },
        },
      },
    ]);
  });
});

describe('linksIn', () => {
  it('finds each http(s) link once, without the punctuation that ends a sentence', () => {
    expect(linksIn('See http://a.example/x?y=1&z=2. Then https://b.example/(c), and http://a.example/x?y=1&z=2')).toEqual([
      'http://a.example/x?y=1&z=2',
      'https://b.example/(c)',
    ]);
    expect(linksIn('(see https://c.example/a)')).toEqual(['https://c.example/a']);
    expect(linksIn('no links here, not even ftp://c.example')).toEqual([]);
  });
});

describe('createMailTransport', () => {
  it('is SMTP with SMTP_URL and the log without it', () => {
    const log = { info: () => {} };
    expect(createMailTransport({ smtpUrl: 'smtp://u:p@127.0.0.1:2525', from: 'a@b.c' }, log).kind).toBe('smtp');
    expect(createMailTransport({ smtpUrl: null, from: 'a@b.c' }, log).kind).toBe('log');
  });
});

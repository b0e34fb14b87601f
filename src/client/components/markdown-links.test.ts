import { describe, expect, it } from 'vitest';
import { BARE_TASK_PATH, safeLink } from './markdown-links';

const ORIGIN = 'https://crew.example.com';
const TASK = '0b6c3f7e-1d2a-4c5b-9e8f-7a6b5c4d3e2f';

describe('safeLink', () => {
  it('keeps http and https elsewhere as external links', () => {
    expect(safeLink('https://example.org/a?b=1#c', ORIGIN)).toEqual({ kind: 'external', href: 'https://example.org/a?b=1#c' });
    expect(safeLink('http://example.org', ORIGIN)).toEqual({ kind: 'external', href: 'http://example.org/' });
    // Protocol-relative goes to another host: external, not a path of the app.
    expect(safeLink('//evil.example/x', ORIGIN)).toEqual({ kind: 'external', href: 'https://evil.example/x' });
  });

  it('keeps mailto', () => {
    expect(safeLink('mailto:ada@example.com', ORIGIN)).toEqual({ kind: 'mailto', href: 'mailto:ada@example.com' });
  });

  it('refuses every other scheme, however it is spelled', () => {
    for (const href of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      'jav\u0000ascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'ftp://example.org',
      'blob:https://crew.example.com/1',
      'tel:+123',
      '',
      '   ',
    ]) {
      expect(safeLink(href, ORIGIN), JSON.stringify(href)).toBeNull();
    }
  });

  it('treats relative paths and absolute URLs of the app as internal', () => {
    expect(safeLink('/projects', ORIGIN)).toEqual({ kind: 'internal', href: '/projects' });
    expect(safeLink('notes?x=1#y', ORIGIN)).toEqual({ kind: 'internal', href: '/notes?x=1#y' });
    expect(safeLink(`${ORIGIN}/calendar`, ORIGIN)).toEqual({ kind: 'internal', href: '/calendar' });
  });

  it('recognises task links, relative or absolute, and normalises the id', () => {
    const link = { kind: 'task', href: `/tasks/${TASK}`, taskId: TASK };
    expect(safeLink(`/tasks/${TASK}`, ORIGIN)).toEqual(link);
    expect(safeLink(`/tasks/${TASK.toUpperCase()}/`, ORIGIN)).toEqual(link);
    expect(safeLink(`${ORIGIN}/tasks/${TASK}?priority=high`, ORIGIN)).toEqual(link);
    // Another site's /tasks/<id> is just a link there.
    expect(safeLink(`https://other.example/tasks/${TASK}`, ORIGIN)).toEqual({
      kind: 'external',
      href: `https://other.example/tasks/${TASK}`,
    });
    expect(safeLink('/tasks/not-a-uuid', ORIGIN)).toEqual({ kind: 'internal', href: '/tasks/not-a-uuid' });
  });
});

describe('BARE_TASK_PATH', () => {
  it('matches a task path at the start of the text, and not one run into more characters', () => {
    expect(BARE_TASK_PATH.exec(`/tasks/${TASK} next`)?.[0]).toBe(`/tasks/${TASK}`);
    expect(BARE_TASK_PATH.exec(`/tasks/${TASK}.`)?.[0]).toBe(`/tasks/${TASK}`);
    expect(BARE_TASK_PATH.test(`/tasks/${TASK}x`)).toBe(false);
    expect(BARE_TASK_PATH.test(`x/tasks/${TASK}`)).toBe(false);
  });
});

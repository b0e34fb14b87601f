import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { NOTE_FRAGMENT } from '../../../domain/schemas/note';
import { docFrom, excerptOf, noteMentions, noteText, replaceContent } from './note-document';

const el = (name: string, children: (Y.XmlElement | Y.XmlText)[] = [], attrs: Record<string, string> = {}) => {
  const e = new Y.XmlElement(name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.insert(0, children);
  return e;
};
const text = (s: string) => new Y.XmlText(s);

function sample(): Y.Doc {
  const doc = new Y.Doc();
  doc
    .getXmlFragment(NOTE_FRAGMENT)
    .insert(0, [
      el('heading', [text('Launch')], { level: '1' }),
      el('paragraph', [
        text('Ask '),
        el('mention', [], { id: 'A1B2C3D4-0000-4000-8000-000000000001', label: 'Max' }),
        el('mention', [], { id: "x' or 1=1", label: 'Bad' }),
        text(' about '),
        el('taskLink', [], { taskId: 't', label: 'Fix it' }),
      ]),
      el('bulletList', [el('listItem', [el('paragraph', [text('first')])]), el('listItem', [el('paragraph', [text('second')])])]),
      el('paragraph', []),
      el('codeBlock', [text('const a = 1;\nconst b = 2;')]),
      el('table', [
        el('tableRow', [
          el('tableHeader', [el('paragraph', [text('Name')])]),
          el('tableHeader', [el('paragraph', [text('Role')])]),
        ]),
        el('tableRow', [el('tableCell', [el('paragraph', [text('Mia')])]), el('tableCell', [el('paragraph', [text('Dev')])])]),
      ]),
      el('paragraph', [text('line'), el('hardBreak'), text('break')]),
    ]);
  return doc;
}

describe('noteText', () => {
  it('puts each block on a line, tables as tab-separated rows, mentions and task links as labels', () => {
    expect(noteText(sample())).toBe(
      [
        'Launch',
        'Ask @Max@Bad about Fix it',
        'first',
        'second',
        'const a = 1;\nconst b = 2;',
        'Name\tRole',
        'Mia\tDev',
        'line',
        'break',
      ].join('\n'),
    );
  });

  it('is empty for an empty document, keeps formatted text as text, and drops NUL (PostgreSQL text cannot hold it)', () => {
    expect(noteText(new Y.Doc())).toBe('');
    const doc = new Y.Doc();
    const t = text('');
    doc.getXmlFragment(NOTE_FRAGMENT).insert(0, [el('paragraph', [t])]);
    t.insert(0, 'bold', { bold: {} });
    t.insert(4, ' plain\u0000');
    expect(noteText(doc)).toBe('bold plain');
  });
});

describe('noteMentions', () => {
  it('finds mentioned user ids anywhere in the document, lower-cased, ignoring ids that are not user ids', () => {
    expect([...noteMentions(sample())]).toEqual(['a1b2c3d4-0000-4000-8000-000000000001']);
  });
});

describe('excerptOf', () => {
  it('flattens whitespace and cuts long text with an ellipsis', () => {
    expect(excerptOf('a\n\nb\tc')).toBe('a b c');
    expect(excerptOf('x'.repeat(300), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});

describe('replaceContent', () => {
  it('makes a document hold another one’s content as one update that converges elsewhere', () => {
    const live = sample();
    const replica = docFrom([Y.encodeStateAsUpdate(live)]);
    const version = new Y.Doc();
    version.getXmlFragment(NOTE_FRAGMENT).insert(0, [el('paragraph', [text('Old text')])]);
    const update = replaceContent(live, version, null);
    expect(noteText(live)).toBe('Old text');
    Y.applyUpdate(replica, update);
    expect(noteText(replica)).toBe('Old text');
  });
});

import { describe, expect, it } from 'vitest';
import { matchCommands, matchesWords } from './commands';

describe('matchesWords', () => {
  it('finds words by their beginnings, in any order, case and accents ignored', () => {
    expect(matchesWords('go proj', 'Go to Projects')).toBe(true);
    expect(matchesWords('PROJ go', 'Go to Projects')).toBe(true);
    expect(matchesWords('cafe', 'Café menu')).toBe(true);
    expect(matchesWords('jects', 'Go to Projects')).toBe(false);
    expect(matchesWords('go teams', 'Go to Projects')).toBe(false);
  });

  it('an empty or punctuation-only query matches everything', () => {
    expect(matchesWords('', 'Sign out')).toBe(true);
    expect(matchesWords('  - ', 'Sign out')).toBe(true);
  });
});

describe('matchCommands', () => {
  it('offers the admin panel to super admins only', () => {
    expect(matchCommands('admin', false).map((c) => c.id)).toEqual([]);
    expect(matchCommands('admin', true).map((c) => c.id)).toEqual(['go:/admin']);
  });

  it('offers New Task, New Project and New Note only to someone offered work (not a mere viewer or guest)', () => {
    expect(matchCommands('new task', false).map((c) => c.id)).toEqual(['new-task']);
    expect(matchCommands('new task', false, false).map((c) => c.id)).toEqual([]);
    expect(matchCommands('', true, false).map((c) => c.id)).not.toContain('new-task');
    expect(matchCommands('new project', false, false).map((c) => c.id)).toEqual([]);
    expect(matchCommands('new note', false, false).map((c) => c.id)).toEqual([]);
    expect(matchCommands('new team', false, false).map((c) => c.id)).toEqual(['new-team']);
  });

  it('answers to keywords: logout, dark', () => {
    expect(matchCommands('logout', false).map((c) => c.id)).toEqual(['sign-out']);
    expect(matchCommands('dark', false).map((c) => c.id)).toEqual(['theme:dark']);
  });
});

describe('the New Note command', () => {
  it('opens /notes with its form', () => {
    const [note] = matchCommands('new note', false);
    expect(note?.id).toBe('new-note');
    expect(note?.action).toEqual({ go: '/notes?new=1' });
  });
});

import { describe, expect, it } from 'vitest';
import { mentionedIds } from '../../../../../domain/schemas/task-detail';
import { activeMention, insertMention, matchPeople, mentionNames, toMentionDisplay, toMentionTokens } from './mentions';

const ANN = { id: '11111111-1111-4111-8111-111111111111', fullName: 'Ann' };
const ANN_LEE = { id: '22222222-2222-4222-8222-222222222222', fullName: 'Ann Lee' };
const BO = { id: '33333333-3333-4333-8333-333333333333', fullName: 'Bo Örn' };
const PEOPLE = [ANN, ANN_LEE, BO];

describe('activeMention', () => {
  it('finds the @ being typed and what follows it', () => {
    expect(activeMention('@', 1)).toEqual({ start: 0, query: '' });
    expect(activeMention('hi @an', 6)).toEqual({ start: 3, query: 'an' });
    expect(activeMention('hi @Ann L', 9)).toEqual({ start: 3, query: 'Ann L' });
    expect(activeMention('(@bo', 4)).toEqual({ start: 1, query: 'bo' });
    // Only up to the caret.
    expect(activeMention('hi @ann and more', 7)).toEqual({ start: 3, query: 'ann' });
  });

  it('is not a mention inside a word, across lines, after a space first, or when far from the @', () => {
    expect(activeMention('mail ann@example.com', 20)).toBeNull();
    expect(activeMention('@ann\nnext', 9)).toBeNull();
    expect(activeMention('@ x', 3)).toBeNull();
    expect(activeMention('no at here', 5)).toBeNull();
    expect(activeMention(`@${'a'.repeat(41)}`, 42)).toBeNull();
    expect(activeMention('@ann  lee', 9)).toBeNull();
  });
});

describe('matchPeople', () => {
  it('puts names with a word starting with the query first, then names containing it', () => {
    const people = [
      { id: '1', fullName: 'Zed Annex' },
      { id: '2', fullName: 'Joanna' },
      { id: '3', fullName: 'Ann Lee' },
    ];
    expect(matchPeople(people, 'ann').map((p) => p.id)).toEqual(['1', '3', '2']);
    expect(matchPeople(people, 'LEE').map((p) => p.id)).toEqual(['3']);
    expect(matchPeople(people, '')).toHaveLength(3);
    expect(matchPeople(people, 'xyz')).toEqual([]);
  });
});

describe('insertMention', () => {
  it('replaces the typed query with the full name and a space, and moves the caret after it', () => {
    const text = 'hi @an please';
    expect(insertMention(text, { start: 3, query: 'an' }, 6, ANN_LEE)).toEqual({ text: 'hi @Ann Lee please', caret: 12 });
    expect(insertMention('@', { start: 0, query: '' }, 1, BO)).toEqual({ text: '@Bo Örn ', caret: 8 });
  });
});

describe('toMentionTokens and toMentionDisplay', () => {
  it('turns each @Full Name into a token, longest names first, whole names only', () => {
    expect(toMentionTokens('@Ann Lee and @Ann, not @Anna; @bo örn!', PEOPLE)).toBe(
      `<@${ANN_LEE.id}> and <@${ANN.id}>, not @Anna; <@${BO.id}>!`,
    );
    expect(toMentionTokens('no mentions here', PEOPLE)).toBe('no mentions here');
    expect(toMentionTokens('@Ann', [])).toBe('@Ann');
  });

  it('treats names as text, not as patterns', () => {
    const odd = { id: '44444444-4444-4444-8444-444444444444', fullName: 'A.B (c)*' };
    expect(toMentionTokens('@A.B (c)* and @AxB (c)', [odd])).toBe(`<@${odd.id}> and @AxB (c)`);
  });

  it('prefers the first person of a name (the one picked from the list)', () => {
    const twin = { id: '55555555-5555-4555-8555-555555555555', fullName: 'Ann' };
    expect(toMentionTokens('@Ann', [twin, ANN])).toBe(`<@${twin.id}>`);
  });

  it('round-trips: display -> tokens -> display, and the domain reads the ids back', () => {
    const names = mentionNames(PEOPLE);
    const body = `ping <@${ANN_LEE.id}> and <@${BO.id.toUpperCase()}>`;
    const shown = toMentionDisplay(body, names);
    expect(shown).toBe('ping @Ann Lee and @Bo Örn');
    const sent = toMentionTokens(shown, PEOPLE);
    expect(mentionedIds(sent)).toEqual([ANN_LEE.id, BO.id]);
    expect(toMentionDisplay(sent, names)).toBe(shown);
  });

  it('shows a departed account as @former member', () => {
    expect(toMentionDisplay('<@99999999-9999-4999-8999-999999999999> hi', new Map())).toBe('@former member hi');
  });
});

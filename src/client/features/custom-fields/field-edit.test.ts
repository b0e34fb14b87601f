import { describe, expect, it } from 'vitest';
import type { CustomFieldDto } from '../../../domain/schemas/custom-field';
import {
  createInputOf,
  deleteFieldText,
  draftOf,
  emptyFieldDraft,
  newOption,
  optionErrors,
  projectsSummary,
  removedOptions,
  removeOptionsText,
  splitServerErrors,
  typeSummary,
  updateInputOf,
} from './field-edit';

const severity: CustomFieldDto = {
  id: 'f1',
  teamId: 't1',
  name: 'Severity',
  type: 'select',
  options: [
    { id: 'o1', name: 'Low', color: '#64748b' },
    { id: 'o2', name: 'High', color: '#ea580c' },
    { id: 'o3', name: 'Critical', color: '#dc2626' },
  ],
  projectIds: null,
  showOnCard: false,
  archived: false,
  unit: null,
  decimals: null,
  position: 0,
  createdAt: '2026-11-29T00:00:00.000Z',
  updatedAt: '2026-11-29T00:00:00.000Z',
};

describe('createInputOf', () => {
  it('sends options only for selects, unit and decimals only for numbers, null projects for all', () => {
    const select = { ...emptyFieldDraft(), name: 'Severity', type: 'select' as const, options: draftOf(severity).options };
    expect(createInputOf(select)).toEqual({
      name: 'Severity',
      type: 'select',
      projectIds: null,
      showOnCard: false,
      options: severity.options.map(({ id, name, color }) => ({ id, name, color })),
    });
    const points = { ...emptyFieldDraft(), name: 'Points', type: 'number' as const, unit: ' pts ', decimals: '0' };
    expect(createInputOf({ ...points, allProjects: false, projectIds: ['p1'] })).toEqual({
      name: 'Points',
      type: 'number',
      projectIds: ['p1'],
      showOnCard: false,
      unit: 'pts',
      decimals: 0,
    });
    expect(createInputOf({ ...points, unit: '', decimals: '' })).toMatchObject({ unit: null, decimals: null });
  });
});

describe('updateInputOf', () => {
  it('is empty when nothing changed', () => {
    expect(updateInputOf(severity, draftOf(severity))).toEqual({});
  });

  it('sends only what changed, options as the whole list in the new order', () => {
    const d = draftOf(severity);
    const [low, , critical] = d.options;
    const next = { ...d, name: 'Sev', showOnCard: true, options: [critical!, { ...low!, name: 'Minor' }] };
    expect(updateInputOf(severity, next)).toEqual({
      name: 'Sev',
      showOnCard: true,
      options: [
        { id: 'o3', name: 'Critical', color: '#dc2626' },
        { id: 'o1', name: 'Minor', color: '#64748b' },
      ],
    });
    expect(removedOptions(severity, next)).toEqual([severity.options[1]]);
  });

  it('tells projects by set, not order', () => {
    const field = { ...severity, projectIds: ['a', 'b'] };
    expect(updateInputOf(field, { ...draftOf(field), projectIds: ['b', 'a'] })).toEqual({});
    expect(updateInputOf(field, { ...draftOf(field), allProjects: true })).toEqual({ projectIds: null });
  });
});

describe('options', () => {
  it('gives a new option the first colour no other has', () => {
    const first = newOption([]);
    const second = newOption([first]);
    expect(first.color).not.toBe(second.color);
    expect(first.key).not.toBe(second.key);
  });

  it('refuses empty and repeated names (case-insensitive)', () => {
    const opts = [
      { key: 'a', name: 'High', color: '#000000' },
      { key: 'b', name: ' high ', color: '#000000' },
      { key: 'c', name: ' ', color: '#000000' },
    ];
    expect(optionErrors(opts)).toEqual({ b: 'Options must have different names', c: 'Option name is required' });
  });
});

describe('confirmation texts', () => {
  const usage = { tasks: 5, options: { o1: 0, o2: 3, o3: 1 } };

  it('counts the tasks that lose a removed option, singular for one', () => {
    expect(removeOptionsText([severity.options[1]!], usage)).toBe('Remove option “High”? It will be cleared from 3 tasks.');
    expect(removeOptionsText([severity.options[2]!], usage)).toBe('Remove option “Critical”? It will be cleared from 1 task.');
    expect(removeOptionsText([severity.options[1]!, severity.options[2]!], usage)).toBe(
      'Remove options “High” and “Critical”? “High” will be cleared from 3 tasks and “Critical” from 1 task.',
    );
  });

  it('asks nothing when no task has a removed option', () => {
    expect(removeOptionsText([severity.options[0]!], usage)).toBeNull();
  });

  it('names the count on delete', () => {
    expect(deleteFieldText('Severity', 12)).toBe('Delete “Severity”? Its values on 12 tasks will be removed.');
    expect(deleteFieldText('Severity', 1)).toBe('Delete “Severity”? Its value on 1 task will be removed.');
    expect(deleteFieldText('Severity', 0)).toBe('Delete “Severity”?');
  });
});

describe('row summaries', () => {
  const names = new Map([
    ['a', 'Launch'],
    ['b', 'Website'],
    ['c', 'Docs'],
  ]);

  it('tells the projects', () => {
    expect(projectsSummary(null, names)).toBe('All projects');
    expect(projectsSummary(['a'], names)).toBe('Launch');
    expect(projectsSummary(['a', 'b', 'c'], names)).toBe('Launch, Website and 1 more');
  });

  it('tells the type', () => {
    expect(typeSummary(severity)).toBe('Select (3 options)');
    expect(typeSummary({ ...severity, type: 'number', options: [], unit: 'h', decimals: 2 })).toBe('Number (h, 2 decimals)');
    expect(typeSummary({ ...severity, type: 'date', options: [] })).toBe('Date');
  });
});

describe('splitServerErrors', () => {
  it("puts an option's refusal on its row and the rest on the dialog's fields", () => {
    const sent = draftOf(severity).options;
    expect(splitServerErrors({ name: 'Taken', 'options.1.name': 'Too long', 'options.9': 'x' }, sent)).toEqual({
      top: { name: 'Taken', options: 'x' },
      options: { o2: 'Too long' },
    });
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { taskBoardDto } from '../../domain/schemas/task';
import { builtExactly, createSerializerCompiler } from './serializer';

const user = z.object({
  id: z.string(),
  name: z.string().nullable(),
  tags: z.array(z.string()),
  counts: z.record(z.enum(['a', 'b']), z.number().int()),
});
const compile = (check: boolean, schema: unknown = user) =>
  createSerializerCompiler({ check })({ schema, method: 'GET', url: '/x', httpStatus: '200' } as never);

describe('createSerializerCompiler', () => {
  it('sends only the declared fields, as zod would, in both modes', () => {
    const data = { id: 'u1', name: null, tags: ['x', 'y "quoted"'], counts: { a: 1, b: 2 }, passwordHash: 'secret' };
    for (const check of [true, false]) {
      const text = compile(check)(data);
      expect(JSON.parse(text)).toEqual({ id: 'u1', name: null, tags: ['x', 'y "quoted"'], counts: { a: 1, b: 2 } });
      expect(text).not.toContain('secret');
    }
  });

  it('accepts the { properties: schema } form', () => {
    expect(compile(false, { properties: user })({ id: 'u', name: 'N', tags: [], counts: { a: 0, b: 0 } })).toBe(
      '{"id":"u","name":"N","tags":[],"counts":{"a":0,"b":0}}',
    );
  });

  it('with check, refuses a response that breaks its schema', () => {
    expect(() => compile(true)({ id: 1, name: null, tags: [], counts: { a: 1, b: 2 } })).toThrow();
    expect(() => compile(true)({ id: 'u', tags: [], counts: { a: 1, b: 2 } })).toThrow();
  });

  it('writes a board exactly as JSON.stringify of the zod-encoded board', () => {
    const task = {
      id: '0b5e4a4c-6f1e-4b4a-9a52-0d7f4bd1c001',
      title: 'Ship it — "now" \\ later',
      description: null,
      status: 'todo',
      statusCategory: 'unstarted',
      priority: 'high',
      assigneeId: null,
      assignee: null,
      projectId: '0b5e4a4c-6f1e-4b4a-9a52-0d7f4bd1c002',
      projectName: 'Apollo',
      creatorId: '0b5e4a4c-6f1e-4b4a-9a52-0d7f4bd1c003',
      dueDate: '2026-11-30',
      tags: ['a'],
      commentCount: 0,
      attachmentCount: 0,
      checklistTotal: 0,
      checklistDone: 0,
      parentId: null,
      subtaskCounts: { done: 1, total: 2 },
      startDate: '2026-11-20',
      blockedCount: 0,
      // Every kind of value a custom field stores (issue 38): fast-json-stringify must write them as JSON does.
      fields: {
        '0f1e2d3c-4b5a-4697-8899-aabbccddeeff': 'Acme',
        '1f1e2d3c-4b5a-4697-8899-aabbccddeeff': 3.5,
        '2f1e2d3c-4b5a-4697-8899-aabbccddeeff': true,
        '3f1e2d3c-4b5a-4697-8899-aabbccddeeff': ['0a1e2d3c-4b5a-4697-8899-aabbccddeeff', '0b1e2d3c-4b5a-4697-8899-aabbccddeeff'],
      },
      // A repeating task's series (issue 39) and its time: an object, nulls, a fraction of a point.
      repeat: {
        seriesId: '0b5e4a4c-6f1e-4b4a-9a52-0d7f4bd1c005',
        rule: 'FREQ=WEEKLY;BYDAY=MO',
        mode: 'on_completion',
        timezone: 'Europe/Berlin',
        nextDate: '2026-12-07',
        nextAt: '2026-12-06T23:00:00.000Z',
      },
      seriesId: '0b5e4a4c-6f1e-4b4a-9a52-0d7f4bd1c005',
      estimateMinutes: null,
      estimatePoints: 2.5,
      loggedMinutes: 90,
      subtaskLoggedMinutes: 0,
      createdAt: '2026-11-22T07:00:00.000Z',
      updatedAt: '2026-11-22T07:00:00.000Z',
      version: 3,
    };
    const board = {
      columnKind: 'status',
      order: ['todo', 'in_progress', 'review', 'completed'],
      columns: { todo: [task], in_progress: [], review: [], completed: [] },
      counts: { todo: 1, in_progress: 0, review: 0, completed: 0 },
      total: 1,
      workflows: [
        {
          projectId: task.projectId,
          statuses: [
            {
              id: '0b5e4a4c-6f1e-4b4a-9a52-0d7f4bd1c004',
              key: 'todo',
              name: 'To Do',
              category: 'unstarted',
              color: '#64748b',
              position: 0,
              wipLimit: null,
            },
          ],
        },
      ],
    };
    expect(compile(false, taskBoardDto)(board)).toBe(JSON.stringify(z.encode(taskBoardDto, board as never)));
  });

  it('writes a schema marked builtExactly with JSON.stringify, and in check mode refuses an answer not built as its contract', () => {
    const exact = builtExactly(z.object({ id: z.string(), n: z.number().int() }));
    const compiled = (check: boolean) =>
      createSerializerCompiler({ check })({ schema: exact, method: 'GET', url: '/x', httpStatus: '200' } as never);
    for (const check of [true, false]) expect(compiled(check)({ id: 'a', n: 1 })).toBe('{"id":"a","n":1}');
    // A field too many, or the fields in another order: the tests' check mode fails loudly.
    expect(() => compiled(true)({ id: 'a', n: 1, secret: 'x' })).toThrow(/not built exactly/);
    expect(() => compiled(true)({ n: 1, id: 'a' })).toThrow(/not built exactly/);
    // An unmarked schema drops the extra field instead.
    expect(
      createSerializerCompiler({ check: false })({
        schema: z.object({ id: z.string() }),
        method: 'GET',
        url: '/x',
        httpStatus: '200',
      } as never)({ id: 'a', secret: 'x' }),
    ).toBe('{"id":"a"}');
  });
});

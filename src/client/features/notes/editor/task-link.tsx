import { useQuery } from '@tanstack/react-query';
import { mergeAttributes, Node } from '@tiptap/core';
import { PluginKey } from '@tiptap/pm/state';
import { type NodeViewProps, NodeViewWrapper, ReactNodeViewRenderer } from '@tiptap/react';
import Suggestion, { type SuggestionOptions } from '@tiptap/suggestion';
import { CircleHelp } from 'lucide-react';
import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import type { TaskDto } from '../../../../domain/schemas/task';
import { StatusIcon, statusText } from '../../../components/task-visuals';
import { api } from '../../../lib/api-client';
import { defaultLookOf } from '../../../lib/default-column';
import { noteKeys } from '../api/note-keys';
import type { SuggestionItem } from './suggestion-menu';

/**
 * `#` links a task: an inline node `taskLink` (attribute `taskId`, and `label`, the title when linked, which the
 * server uses for the note's plain text) shown as a chip with the task's LIVE title and status, read per task id
 * under the 'tasks' query root so that the realtime task events refresh it. The chip opens /tasks/:id.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isTaskId = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

export const TaskLinkPluginKey = new PluginKey('taskLink');

export interface TaskLinkOptions {
  suggestion: Omit<SuggestionOptions<SuggestionItem>, 'editor'>;
}

const chipClass =
  'mx-0.5 inline-flex max-w-full items-center gap-1 rounded-md border px-1.5 py-0 align-baseline text-[0.9em] font-medium no-underline';

function TaskChip({ node, selected }: NodeViewProps) {
  const taskId = node.attrs.taskId as unknown;
  const valid = isTaskId(taskId);
  const navigate = useNavigate();
  const task = useQuery({
    queryKey: noteKeys.taskChip(valid ? taskId : ''),
    queryFn: ({ signal }) => api.get<TaskDto>(`/api/tasks/${taskId}`, { signal }),
    enabled: valid,
    retry: false,
    staleTime: 30_000,
  });
  const ring = selected ? 'ring-2 ring-brand-600' : '';
  if (!valid || task.isError) {
    return (
      <NodeViewWrapper
        as="span"
        className={`${chipClass} ${ring} border-slate-300 bg-slate-100 text-slate-700 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-200`}
      >
        <CircleHelp className="h-3.5 w-3.5 shrink-0" aria-hidden />
        <span>Unavailable task</span>
      </NodeViewWrapper>
    );
  }
  const href = `/tasks/${taskId}`;
  const open = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  const title = task.data?.title ?? (node.attrs.label as string | null) ?? 'Loading task…';
  const status = task.data ? defaultLookOf(task.data) : undefined;
  return (
    <NodeViewWrapper as="span" className="inline" data-task-chip={taskId}>
      <a
        href={href}
        onClick={open}
        contentEditable={false}
        className={`${chipClass} ${ring} border-indigo-200 bg-brand-50 text-indigo-800 hover:bg-brand-100 dark:border-indigo-800 dark:bg-indigo-950 dark:text-indigo-100 dark:hover:bg-indigo-900`}
      >
        {status && <StatusIcon status={status} />}
        <span className="truncate">{title}</span>
        {status && (
          <span className="rounded bg-white/70 px-1 text-[0.8em] font-normal text-slate-800 dark:bg-slate-900/60 dark:text-slate-100">
            {statusText(status)}
          </span>
        )}
      </a>
    </NodeViewWrapper>
  );
}

export const TaskLink = Node.create<TaskLinkOptions>({
  name: 'taskLink',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,

  addOptions() {
    return { suggestion: {} };
  },

  addAttributes() {
    return {
      taskId: {
        default: null,
        parseHTML: (el) => {
          const id = el.getAttribute('data-task-id');
          return isTaskId(id) ? id.toLowerCase() : null;
        },
        renderHTML: (attrs) => (isTaskId(attrs.taskId) ? { 'data-task-id': attrs.taskId } : {}),
      },
      label: {
        default: null,
        parseHTML: (el) => el.getAttribute('data-label')?.slice(0, 200) ?? null,
        renderHTML: (attrs) => (typeof attrs.label === 'string' ? { 'data-label': attrs.label } : {}),
      },
    };
  },

  parseHTML() {
    return [{ tag: 'span[data-type="task-link"]' }];
  },

  renderHTML({ node, HTMLAttributes }) {
    return ['span', mergeAttributes({ 'data-type': 'task-link' }, HTMLAttributes), `#${node.attrs.label ?? 'task'}`];
  },

  renderText({ node }) {
    return `#${node.attrs.label ?? 'task'}`;
  },

  addNodeView() {
    return ReactNodeViewRenderer(TaskChip, { as: 'span' });
  },

  addProseMirrorPlugins() {
    return [
      Suggestion<SuggestionItem>({
        editor: this.editor,
        pluginKey: TaskLinkPluginKey,
        char: '#',
        command: ({ editor, range, props }) => {
          editor
            .chain()
            .focus()
            .insertContentAt(range, [
              { type: this.name, attrs: { taskId: props.id, label: props.label } },
              { type: 'text', text: ' ' },
            ])
            .run();
        },
        ...this.options.suggestion,
      }),
    ];
  },
});
